// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// What the cheatcode tests call: it records its callers, emits, reverts in each way, stores.
contract Target {
    error NotAllowed(address who, uint256 amount);
    error Closed();

    event Moved(address indexed from, address indexed to, uint256 amount);
    event Noted(string note);

    address public lastSender;
    address public lastOrigin;
    uint256 public stored;
    uint256 public received;

    constructor(uint256 initial) payable {
        stored = initial;
    }

    function touch() external payable {
        lastSender = msg.sender;
        lastOrigin = tx.origin;
        received += msg.value;
    }

    function move(address to, uint256 amount) external returns (bool) {
        emit Moved(msg.sender, to, amount);
        emit Noted("moved");
        return true;
    }

    function set(uint256 v) external {
        stored = v;
    }

    function failWithReason() external pure {
        revert("target: no");
    }

    function failWithError(uint256 amount) external view {
        revert NotAllowed(msg.sender, amount);
    }

    function failClosed() external pure {
        revert Closed();
    }

    function failWithPanic() external pure returns (uint256) {
        uint256 zero = 0;
        return 1 / zero;
    }

    function price() external pure returns (uint256) {
        return 100;
    }

    function blockInfo() external view returns (uint256 number, uint256 time, uint256 baseFee, uint256 chain, address miner, uint256 gasPrice) {
        return (block.number, block.timestamp, block.basefee, block.chainid, block.coinbase, tx.gasprice);
    }
}

/// Calls the target from another contract, for expectRevert at a lower depth.
contract Relay {
    function relayFail(Target t) external pure {
        t.failWithReason();
    }
}
