// SPDX-License-Identifier: MIT
pragma solidity >=0.8.17;

/// @dev Where the bech32 precompile lives on Cosmos EVM chains (cosmos/evm, Evmos).
address constant BECH32_PRECOMPILE_ADDRESS = 0x0000000000000000000000000000000000000400;

/// @title The bech32 precompile: Cosmos addresses from EVM addresses and back.
/// @notice The selectors and mutability of cosmos/evm's `precompiles/bech32/abi.json`. Each call costs
/// a flat 6,000 gas. A failure (an empty prefix, a string that is not bech32) consumes the gas given
/// and returns no data, as the chain's precompile does; eth_call tells why.
/// @custom:address 0x0000000000000000000000000000000000000400
interface IBech32 {
    /// @param addr The EVM address.
    /// @param prefix The human-readable part: the chain's account prefix ("cosmos", "evmos"), its
    /// validator operator prefix ("cosmosvaloper") or its consensus prefix ("cosmosvalcons").
    /// @return bech32Address The same 20 bytes as a bech32 string.
    function hexToBech32(address addr, string memory prefix) external returns (string memory bech32Address);

    /// @param bech32Address A bech32 string of any prefix.
    /// @return addr The bytes it holds as an EVM address (its last 20 bytes when it holds more).
    function bech32ToHex(string memory bech32Address) external returns (address addr);
}
