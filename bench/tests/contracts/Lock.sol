// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Hardhat's sample contract, extended: ether locked until a time, withdrawn by the owner.
contract Lock {
    uint256 public unlockTime;
    address payable public owner;

    event Withdrawal(uint256 amount, uint256 when);

    constructor(uint256 unlockTime_) payable {
        require(block.timestamp < unlockTime_, "Unlock time should be in the future");
        unlockTime = unlockTime_;
        owner = payable(msg.sender);
    }

    function withdraw() external {
        require(block.timestamp >= unlockTime, "You can't withdraw yet");
        require(msg.sender == owner, "You aren't the owner");
        emit Withdrawal(address(this).balance, block.timestamp);
        owner.transfer(address(this).balance);
    }
}
