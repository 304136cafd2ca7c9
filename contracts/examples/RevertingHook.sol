// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {EPOCHS} from "../IEpochs.sol";
import {IEpochHooks} from "../IEpochHooks.sol";

/// @notice A hook that always fails (a revert with a reason, or running out of gas), to show isolation.
contract RevertingHook is IEpochHooks {
    uint256 public touched;
    bool public burnGas;

    constructor(bool burn) {
        burnGas = burn;
        EPOCHS.registerHooks();
    }

    function beforeEpochStart(string calldata, int64) external {
        touched += 1;
        if (burnGas) while (true) touched += 1;
        revert("hook says no");
    }

    function afterEpochEnd(string calldata, int64) external {
        touched += 1;
        revert("hook says no");
    }
}

/// @notice Registers inside its constructor and then reverts, so the registration must not stick.
contract RegisterThenRevert {
    constructor() {
        EPOCHS.registerHooks();
        revert("undo");
    }
}
