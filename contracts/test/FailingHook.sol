// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {EPOCHS} from "../IEpochs.sol";
import {IEpochHooks} from "../IEpochHooks.sol";
import "hardhat/console.sol";

/// An afterEpochEnd hook that fails the way its constructor was told, for the failure reports of hooks
/// (epoch_hook_failed's error and stack, the node's log). beforeEpochStart always works.
contract FailingHook is IEpochHooks {
    enum Mode {
        Reason,
        Custom,
        Panic,
        Bare,
        Nested
    }

    error HookRefused(string identifier, int64 epochNumber);

    Mode public immutable mode;
    uint256 public calls;

    constructor(Mode m) {
        mode = m;
        EPOCHS.registerHooks();
    }

    function beforeEpochStart(string calldata, int64) external {
        calls += 1;
    }

    function afterEpochEnd(string calldata identifier, int64 epochNumber) external {
        calls += 1;
        console.log("FailingHook.afterEpochEnd", identifier);
        if (mode == Mode.Reason) revert("FailingHook: not now");
        if (mode == Mode.Custom) revert HookRefused(identifier, epochNumber);
        if (mode == Mode.Panic) calls = type(uint256).max + calls;
        if (mode == Mode.Nested) this.check(epochNumber);
        revert();
    }

    function check(int64 epochNumber) external pure {
        require(epochNumber < 0, "FailingHook: checked");
    }
}
