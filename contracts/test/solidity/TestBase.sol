// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Vm} from "./Vm.sol";
import {EPOCHS_CHEATS, IEpochsCheats} from "../../IEpochsCheats.sol";

/// A small stand-in for forge-std's Test (the repository's tests run offline): the cheatcodes and
/// the chain's own cheats, and assertions that are cheatcodes (as forge-std v1.9's are).
abstract contract TestBase {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));
    IEpochsCheats internal constant chain = EPOCHS_CHEATS;

    function assertEq(uint256 a, uint256 b) internal pure {
        vm.assertEq(a, b);
    }

    function assertEq(address a, address b) internal pure {
        vm.assertEq(a, b);
    }

    function assertEq(bytes32 a, bytes32 b) internal pure {
        vm.assertEq(a, b);
    }

    function assertEq(string memory a, string memory b) internal pure {
        vm.assertEq(a, b);
    }

    function assertEq(bool a, bool b) internal pure {
        vm.assertEq(a, b);
    }

    function assertTrue(bool a) internal pure {
        vm.assertTrue(a);
    }
}
