// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title The epochs chain's own cheatcodes, for Solidity tests run by hardhat-epochs
///        (`hardhat test solidity` on Hardhat 3, `hardhat test:solidity` on Hardhat 2).
/// @notice Blocks made inside a test run every module's begin- and end-block work on the test's
///         state: epoch ticks, the hooks they call (contracts' IEpochHooks included), x/mint and
///         distribution. The hooks' logs are the logs of the cheatcode call, so `vm.expectEmit` and
///         `vm.recordLogs` see them. Only in Solidity tests: on a node this address has no code.
interface IEpochsCheats {
    /// Moves the clock and makes blocks until the timer's current epoch ended and the next started; returns the new epoch number.
    function advanceEpoch(string calldata identifier) external returns (uint256 epochNumber);

    /// Makes `count` blocks, `secondsPerBlock` apart.
    function advanceBlocks(uint256 count, uint256 secondsPerBlock) external;

    /// The timer's current epoch number (the epochs module's state, as the test sees it now).
    function currentEpoch(string calldata identifier) external view returns (uint256);

    /// The chain's validator operator address (`evmosvaloper1…`, `cosmosvaloper1…`) of an account: what the staking precompile takes.
    function validatorAddress(address operator) external view returns (string memory);
}

// keccak256("hardhat-epochs cheat code"), last 20 bytes.
IEpochsCheats constant EPOCHS_CHEATS = IEpochsCheats(0x1A351ea75CdBcd3d7d2F0CCcD5066CEB42Fc9744);
