// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {EPOCHS} from "../IEpochs.sol";
import {IEpochHooks} from "../IEpochHooks.sol";

/// @notice Counts the starts of "day" epochs and remembers the last one it saw.
contract DailyCounter is IEpochHooks {
    uint256 public daysStarted;
    int64 public lastDay;

    event DayStarted(int64 epochNumber);

    constructor() {
        EPOCHS.registerHooks();
    }

    function beforeEpochStart(string calldata identifier, int64 epochNumber) external {
        require(msg.sender == address(EPOCHS), "only the chain");
        if (keccak256(bytes(identifier)) != keccak256("day")) return;
        daysStarted += 1;
        lastDay = epochNumber;
        emit DayStarted(epochNumber);
    }

    function afterEpochEnd(string calldata, int64) external view {
        require(msg.sender == address(EPOCHS), "only the chain");
    }

    function unregister() external {
        EPOCHS.unregisterHooks();
    }
}
