// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Every way a call can fail, plus a time lock, for the compatibility tests.
contract Reverter {
    error Custom(uint256 code, string why);

    uint256 public unlockTime;
    uint256 public counter;

    event Counted(uint256 indexed value, uint256 at);

    constructor(uint256 lockSeconds) {
        unlockTime = block.timestamp + lockSeconds;
    }

    function withReason() external pure {
        revert("Reverter: no way");
    }

    function withCustom(uint256 code) external pure {
        revert Custom(code, "custom failure");
    }

    function withoutReason() external pure {
        revert();
    }

    function withPanic() external pure returns (uint256) {
        uint256[] memory a = new uint256[](1);
        return a[2];
    }

    function count() external {
        require(block.timestamp >= unlockTime, "Reverter: still locked");
        counter += 1;
        emit Counted(counter, block.timestamp);
    }
}
