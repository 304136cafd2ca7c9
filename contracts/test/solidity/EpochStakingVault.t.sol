// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {TestBase} from "./TestBase.sol";
import {Vm} from "./Vm.sol";
import {EpochStakingVault} from "../../examples/EpochStakingVault.sol";
import {EPOCHS} from "../../IEpochs.sol";
import {PageRequest} from "../../precompiles/CosmosTypes.sol";
import {IStaking, STAKING_PRECOMPILE_ADDRESS, Validator} from "../../precompiles/IStaking.sol";

/// The Cosmos example no other tool can run: a vault delegates through the staking precompile, a
/// day ends inside the test, and the chain's epoch hook makes the vault claim its rewards.
contract EpochStakingVaultTest is TestBase {
    IStaking internal constant STAKING = IStaking(STAKING_PRECOMPILE_ADDRESS);

    EpochStakingVault internal vault;

    event RewardsClaimed(int64 indexed day, uint256 amount);

    function setUp() public {
        PageRequest memory page;
        (Validator[] memory validators, ) = STAKING.validators("BOND_STATUS_BONDED", page);
        // the precompile names validators by hex address; delegate takes the bech32 operator address
        vault = new EpochStakingVault(chain.validatorAddress(vm.parseAddress(validators[0].operatorAddress)));
        vm.deal(address(this), 100 ether);
        vault.stake{value: 10 ether}();
        // a chain whose day timer has not started yet: the first advance starts it, the next ones end days
        if (chain.currentEpoch("day") == 0) chain.advanceEpoch("day");
    }

    function test_delegatesThroughTheStakingPrecompile() public view {
        assertEq(vault.staked(), 10 ether);
        bool registered;
        address[] memory hooks = EPOCHS.hooks();
        for (uint256 i = 0; i < hooks.length; i++) if (hooks[i] == address(vault)) registered = true;
        assertTrue(registered);
    }

    function test_aDaysEndClaimsRewardsInTheHook() public {
        uint256 day = chain.currentEpoch("day");
        // the hook's event, from the vault (the amount is the chain's to decide)
        vm.expectEmit(false, false, false, false, address(vault));
        emit RewardsClaimed(0, 0);
        uint256 next = chain.advanceEpoch("day");
        assertEq(next, day + 1);
        assertTrue(vault.claimed() > 0);
        assertEq(address(vault).balance, vault.claimed());
    }

    function test_hookLogsAreRecorded() public {
        vm.recordLogs();
        chain.advanceEpoch("day");
        Vm.Log[] memory logs = vm.getRecordedLogs();
        bool seen;
        for (uint256 i = 0; i < logs.length; i++) {
            if (logs[i].emitter == address(vault) && logs[i].topics[0] == RewardsClaimed.selector) seen = true;
        }
        assertTrue(seen);
    }

    function test_blocksMoveTheClock() public {
        uint256 t = block.timestamp;
        uint256 n = block.number;
        chain.advanceBlocks(3, 10);
        assertEq(block.timestamp, t + 30);
        assertEq(block.number, n + 3);
    }
}
