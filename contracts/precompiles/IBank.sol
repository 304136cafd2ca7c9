// SPDX-License-Identifier: MIT
pragma solidity >=0.8.17;

/// @dev Where the bank precompile lives on Cosmos EVM chains (cosmos/evm, Evmos).
address constant BANK_PRECOMPILE_ADDRESS = 0x0000000000000000000000000000000000000804;

/// A coin with an ERC-20 token pair: the pair's address and an amount (the native coin: 18 decimals).
struct Balance {
    address contractAddress;
    uint256 amount;
}

/// @title The bank precompile: balances and supplies of the coins that have an ERC-20 pair.
/// @notice The selectors and mutability of cosmos/evm's `precompiles/bank/abi.json`. On this chain the
/// native coin is paired with WEVMOS's address (0xD4949664cD82660AaE99bEdc034a0deA8A0bd517) by default,
/// or with the address a genesis.json names (`erc20.native_precompiles`; local_node.sh's: ERC-7528's
/// 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE).
/// @custom:address 0x0000000000000000000000000000000000000804
interface IBank {
    /// The account's coins (none when it holds nothing).
    function balances(address account) external view returns (Balance[] memory balances);

    /// Every coin's supply.
    function totalSupply() external view returns (Balance[] memory totalSupply);

    /// The supply of the coin paired with `erc20Address`; 0 for an ERC-20 without a pair.
    function supplyOf(address erc20Address) external view returns (uint256 totalSupply);
}
