// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Epoch hooks: called by the chain at epoch boundaries, from the epochs precompile's address.
/// @notice Each call has its own gas limit (epochs.hookGasLimit); a reverting hook is undone alone.
///         Filter on `identifier`: every timer calls every registered hook.
interface IEpochHooks {
    /// An epoch is about to start; `epochNumber` is the starting epoch.
    function beforeEpochStart(string calldata identifier, int64 epochNumber) external;

    /// An epoch ended; `epochNumber` is the ending epoch (under the "evmos" tick rule: the next one, as Evmos passes).
    function afterEpochEnd(string calldata identifier, int64 epochNumber) external;
}
