// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {TestBase} from "./TestBase.sol";
import {Target} from "./Target.sol";

/// Every test here must FAIL, each for the reason its name gives: the runner must not pass what forge fails.
contract FailingTest is TestBase {
    Target internal target;

    event Moved(address indexed from, address indexed to, uint256 amount);

    function setUp() public {
        target = new Target(7);
    }

    function test_assertEqFails() public pure {
        vm.assertEq(uint256(1), uint256(2), "one is not two");
    }

    function test_revertFails() public view {
        target.failWithError(3);
    }

    function test_expectRevertNotMet() public {
        vm.expectRevert();
        target.set(1);
    }

    function test_expectRevertWrongReason() public {
        vm.expectRevert(bytes("another reason"));
        target.failWithReason();
    }

    function test_expectEmitNotMet() public {
        vm.expectEmit();
        emit Moved(address(this), address(1), 2);
        target.set(1);
    }

    function test_expectEmitWrongData() public {
        vm.expectEmit();
        emit Moved(address(this), address(1), 2);
        target.move(address(1), 3);
    }

    function test_expectCallNotMade() public {
        vm.expectCall(address(target), abi.encodeCall(Target.set, (5)));
        target.set(6);
    }

    function test_failFlag() public {
        vm.store(address(vm), bytes32("failed"), bytes32(uint256(1)));
    }

    function testFuzz_findsACounterexample(uint256 x) public pure {
        vm.assertLt(x, 1000);
    }

    function testFuzz_assumeRejectsEverything(uint256 x) public pure {
        vm.assume(x == 12345678901234567890);
    }

    function testFail_isRemoved() public pure {
        revert("as Hardhat 3 answers testFail");
    }
}
