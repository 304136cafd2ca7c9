// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {EPOCHS} from "hardhat-epochs/contracts/IEpochs.sol";
import {IEpochHooks} from "hardhat-epochs/contracts/IEpochHooks.sol";
import {IERC20Precompile} from "hardhat-epochs/contracts/precompiles/IWERC20.sol";
import {IICS20, IbcHeight, ICS20_PRECOMPILE_ADDRESS} from "hardhat-epochs/contracts/precompiles/IICS20.sol";

/// @notice A treasury on a Cosmos EVM chain that pays out to another chain every week. Contributors
///         hand it an IBC token (an ATOM voucher, say) through the token's ERC-20 precompile; at the
///         end of every week the chain calls afterEpochEnd and the treasury sends everything it holds
///         to its receiver on the counterparty chain with the ICS20 precompile. A payout the other chain
///         refuses (an error acknowledgement) or that times out comes back to the treasury's balance,
///         so the next week's payout carries it again.
contract WeeklyBridgePayout is IEpochHooks {
    IICS20 private constant ICS20 = IICS20(ICS20_PRECOMPILE_ADDRESS);
    /// How long the counterparty has to receive a payout: one day, in nanoseconds as IBC counts time.
    uint64 private constant TIMEOUT_NS = 1 days * 1e9;

    IERC20Precompile public immutable token;
    /// The token's bank denom (`ibc/…`): what ICS20 sends.
    string public denom;
    string public channel;
    /// The payout address on the counterparty chain (`cosmos1…`).
    string public receiver;

    struct Payout {
        int64 week;
        uint64 sequence;
        uint256 amount;
    }

    Payout[] public payouts;
    mapping(address => uint256) public contributed;

    event Contributed(address indexed from, uint256 amount);
    event PayoutSent(int64 indexed week, uint64 sequence, uint256 amount);

    error OnlyChain();

    constructor(IERC20Precompile token_, string memory denom_, string memory channel_, string memory receiver_) {
        token = token_;
        denom = denom_;
        channel = channel_;
        receiver = receiver_;
        EPOCHS.registerHooks();
    }

    /// Takes `amount` of the token from the caller (approve it first).
    function contribute(uint256 amount) external {
        require(token.transferFrom(msg.sender, address(this), amount), "transfer failed");
        contributed[msg.sender] += amount;
        emit Contributed(msg.sender, amount);
    }

    function payoutCount() external view returns (uint256) {
        return payouts.length;
    }

    function beforeEpochStart(string calldata, int64) external {}

    function afterEpochEnd(string calldata identifier, int64 epochNumber) external {
        if (msg.sender != address(EPOCHS)) revert OnlyChain();
        if (keccak256(bytes(identifier)) != keccak256("week")) return;
        uint256 amount = token.balanceOf(address(this));
        if (amount == 0) return;
        uint64 timeout = uint64(block.timestamp) * 1e9 + TIMEOUT_NS;
        uint64 sequence = ICS20.transfer("transfer", channel, denom, amount, address(this), receiver, IbcHeight(0, 0), timeout, "weekly payout");
        payouts.push(Payout(epochNumber, sequence, amount));
        emit PayoutSent(epochNumber, sequence, amount);
    }
}
