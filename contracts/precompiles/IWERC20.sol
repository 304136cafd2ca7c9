// SPDX-License-Identifier: MIT
pragma solidity >=0.8.17;

/// @dev The native coin's token pair on Cosmos EVM chains: WEVMOS's address (Evmos; evmd's genesis registers the same).
address constant WERC20_NATIVE_ADDRESS = 0xD4949664cD82660AaE99bEdc034a0deA8A0bd517;

/// @title The ERC-20 precompile of a coin's token pair (x/erc20): an IBC voucher, or the native coin.
/// @notice The selectors, events and mutability of cosmos/evm's `precompiles/erc20/abi.json`. Balances and
/// supply are the bank's; transfers are bank sends, so `/cosmos/bank/v1beta1/balances` shows them. Flat gas
/// per method (transfer 9,000, transferFrom 30,500, approve 8,100, balanceOf 2,870, …). It reverts with the
/// chain's texts: "ERC20: transfer amount exceeds balance", "ERC20: insufficient allowance", and refuses a
/// transfer of 0 ("coin 0<denom> amount is not positive") and any value sent to it.
interface IERC20Precompile {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    /// The denom's bank metadata name; an IBC voucher without metadata: from its base denom ("uatom": "Atom"); else it reverts.
    function name() external view returns (string memory);

    function symbol() external view returns (string memory);

    function decimals() external view returns (uint8);

    function totalSupply() external view returns (uint256);

    function balanceOf(address account) external view returns (uint256);

    function allowance(address owner, address spender) external view returns (uint256);

    function transfer(address to, uint256 amount) external returns (bool);

    function transferFrom(address from, address to, uint256 amount) external returns (bool);

    /// Approving 0 removes the allowance.
    function approve(address spender, uint256 amount) external returns (bool);
}

/// @title The native coin's ERC-20 (cosmos/evm's `precompiles/werc20/abi.json`): WETH-shaped, over one balance.
/// @notice The native coin and this ERC-20 are the same bank balance: `deposit()` (also a plain transfer of
/// value, or any unknown call) gives the value back to the sender and emits `Deposit`; `withdraw(wad)`
/// checks the balance and emits `Withdrawal`. `balanceOf(a)` is `a.balance`.
/// @custom:address 0xD4949664cD82660AaE99bEdc034a0deA8A0bd517
interface IWERC20 is IERC20Precompile {
    event Deposit(address indexed dst, uint256 wad);
    event Withdrawal(address indexed src, uint256 wad);

    /// 23,878 gas.
    function deposit() external payable;

    /// 9,207 gas; reverts with "account balance <b> is lower than withdraw balance <wad>".
    function withdraw(uint256 wad) external;
}
