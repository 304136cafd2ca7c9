// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

// The epochs precompile's registration call (contracts/IEpochs.sol in the plugin; copied because a
// Hardhat project compiles only files under its own root).
interface IEpochsRegister {
    function registerHooks() external returns (bool);
}

/// Epoch hooks that count and emit. On stock Hardhat it is a plain contract: nothing calls the hooks.
contract EpochCounter {
    address constant EPOCHS = 0x0000000000000000000000000000000000000900;
    uint256 public started;
    uint256 public ended;
    int64 public lastEpoch;

    event EpochStarted(string identifier, int64 epochNumber);

    function register() external {
        IEpochsRegister(EPOCHS).registerHooks();
    }

    function beforeEpochStart(string calldata identifier, int64 epochNumber) external {
        require(msg.sender == EPOCHS, "only the chain");
        started += 1;
        lastEpoch = epochNumber;
        emit EpochStarted(identifier, epochNumber);
    }

    function afterEpochEnd(string calldata, int64) external {
        require(msg.sender == EPOCHS, "only the chain");
        ended += 1;
    }
}
