// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Reverter} from "./Reverter.sol";

/// Calls into Reverter, so a failure has frames in two contracts (the stack-trace tests).
contract Vault {
    error Overdrawn(address who, uint256 wanted, uint256 held);

    Reverter public immutable reverter;
    mapping(address => uint256) public held;

    constructor(Reverter r) {
        reverter = r;
    }

    function deposit() external payable {
        held[msg.sender] += msg.value;
    }

    function withdraw(uint256 amount) external {
        if (amount > held[msg.sender]) revert Overdrawn(msg.sender, amount, held[msg.sender]);
        held[msg.sender] -= amount;
        payable(msg.sender).transfer(amount);
    }

    function subtract(uint256 a, uint256 b) external pure returns (uint256) {
        return a - b;
    }

    function relay() external view {
        reverter.withReason();
    }

    function reset() external {
        held[msg.sender] = 0;
    }
}
