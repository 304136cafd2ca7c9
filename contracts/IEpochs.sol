// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title The epochs precompile of hardhat-epochs, at 0x0000000000000000000000000000000000000900.
/// @notice Reads the x/epochs timers and registers contracts that implement IEpochHooks.
interface IEpochs {
    /// Times in Unix seconds, duration in seconds.
    struct EpochInfo {
        string identifier;
        int64 startTime;
        int64 duration;
        int64 currentEpoch;
        int64 currentEpochStartTime;
        bool epochCountingStarted;
        int64 currentEpochStartHeight;
    }

    event HooksRegistered(address indexed hooks);
    event HooksUnregistered(address indexed hooks);

    /// Every timer, in identifier-byte order.
    function epochInfos() external view returns (EpochInfo[] memory);

    /// The current epoch of a timer; reverts with "epoch info not found: ID" for an unknown one.
    function currentEpoch(string calldata identifier) external view returns (int64);

    /// The registered hook contracts, in call order.
    function hooks() external view returns (address[] memory);

    /// Registers msg.sender as a hook contract; false when it already is.
    function registerHooks() external returns (bool);

    /// Unregisters msg.sender; false when it was not registered.
    function unregisterHooks() external returns (bool);
}

IEpochs constant EPOCHS = IEpochs(0x0000000000000000000000000000000000000900);
