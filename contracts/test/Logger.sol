// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "hardhat/console.sol";

/// console.log from every kind of execution: transactions, calls, estimates and epoch hooks.
contract Logger {
    uint256 public count;

    function bump(int256 delta, string calldata note) external returns (uint256) {
        count += 1;
        console.log("bump #%d by %s", count, msg.sender);
        console.log(note);
        console.logInt(delta);
        console.log("flag", true);
        console.logBytes32(bytes32(uint256(0xbeef)));
        return count;
    }

    function peek() external view returns (uint256) {
        console.log("peek %i", count);
        return count;
    }

    function beforeEpochStart(string calldata identifier, int64 epochNumber) external view {
        console.log("epoch %s #%d starts", identifier, uint256(int256(epochNumber)));
    }

    function afterEpochEnd(string calldata identifier, int64 epochNumber) external view {
        console.log("epoch %s #%d ends", identifier, uint256(int256(epochNumber)));
    }
}
