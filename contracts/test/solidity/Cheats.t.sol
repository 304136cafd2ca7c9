// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {TestBase} from "./TestBase.sol";
import {Vm} from "./Vm.sol";
import {Target, Relay} from "./Target.sol";

/// A contract whose constructor reverts.
contract Reverting {
    constructor() {
        revert("no");
    }
}

/// One test (or more) per cheatcode this chain supports; each must pass.
contract CheatsTest is TestBase {
    Target internal target;
    address internal constant ALICE = address(0xA11CE);

    event Moved(address indexed from, address indexed to, uint256 amount);
    event Noted(string note);

    function setUp() public {
        target = new Target(7);
    }

    function test_setUpRanAndTestsAreIsolated() public {
        assertEq(target.stored(), 7);
        target.set(8);
        assertEq(target.stored(), 8);
    }

    function test_isolatedFromTheOtherTest() public view {
        assertEq(target.stored(), 7);
    }

    function test_warpRollFeeChainIdCoinbaseGasPrice() public {
        vm.warp(1_900_000_000);
        vm.roll(12_345);
        vm.fee(7 gwei);
        vm.chainId(31337);
        vm.coinbase(ALICE);
        vm.txGasPrice(3 gwei);
        (uint256 number, uint256 time, uint256 baseFee, uint256 chain_, address miner, uint256 gasPrice) = target.blockInfo();
        assertEq(number, 12_345);
        assertEq(time, 1_900_000_000);
        assertEq(baseFee, 7 gwei);
        assertEq(chain_, 31337);
        assertEq(miner, ALICE);
        assertEq(gasPrice, 3 gwei);
        assertEq(block.timestamp, 1_900_000_000);
        assertEq(block.number, 12_345);
        assertEq(vm.getBlockNumber(), 12_345);
        assertEq(vm.getBlockTimestamp(), 1_900_000_000);
    }

    function test_prevrandao() public {
        vm.prevrandao(bytes32(uint256(42)));
        assertEq(block.prevrandao, 42);
    }

    function test_prankAppliesToTheNextCallOnly() public {
        vm.prank(ALICE);
        target.touch();
        assertEq(target.lastSender(), ALICE);
        target.touch();
        assertEq(target.lastSender(), address(this));
    }

    function test_prankWithOrigin() public {
        vm.prank(ALICE, address(0xB0B));
        target.touch();
        assertEq(target.lastOrigin(), address(0xB0B));
    }

    function test_startAndStopPrank() public {
        vm.startPrank(ALICE);
        target.touch();
        assertEq(target.lastSender(), ALICE);
        target.touch();
        assertEq(target.lastSender(), ALICE);
        vm.stopPrank();
        target.touch();
        assertEq(target.lastSender(), address(this));
    }

    function test_prankedSenderPaysTheValue() public {
        vm.deal(ALICE, 5 ether);
        vm.prank(ALICE);
        target.touch{value: 2 ether}();
        assertEq(ALICE.balance, 3 ether);
        assertEq(target.received(), 2 ether);
    }

    function test_deal() public {
        vm.deal(ALICE, 123);
        assertEq(ALICE.balance, 123);
    }

    function test_storeAndLoad() public {
        // Target's `stored` is its third slot (lastSender, lastOrigin, stored)
        vm.store(address(target), bytes32(uint256(2)), bytes32(uint256(99)));
        assertEq(target.stored(), 99);
        assertEq(vm.load(address(target), bytes32(uint256(2))), bytes32(uint256(99)));
    }

    function test_etch() public {
        vm.etch(ALICE, address(target).code);
        assertEq(keccak256(ALICE.code), keccak256(address(target).code));
        assertEq(Target(ALICE).price(), 100);
    }

    function test_nonces() public {
        assertEq(vm.getNonce(address(target)), 1);
        vm.setNonce(ALICE, 10);
        assertEq(vm.getNonce(ALICE), 10);
    }

    function test_expectRevertAnyReason() public {
        vm.expectRevert();
        target.failWithReason();
    }

    function test_expectRevertWithReason() public {
        vm.expectRevert(bytes("target: no"));
        target.failWithReason();
    }

    function test_expectRevertWithCustomError() public {
        vm.expectRevert(abi.encodeWithSelector(Target.NotAllowed.selector, address(this), 5));
        target.failWithError(5);
    }

    function test_expectRevertWithSelector() public {
        // an exact match of the revert data, as forge 1.x: a selector alone matches an error without arguments
        vm.expectRevert(Target.Closed.selector);
        target.failClosed();
    }

    function test_expectPartialRevert() public {
        vm.expectPartialRevert(Target.NotAllowed.selector);
        target.failWithError(6);
    }

    function test_expectRevertWithPanic() public {
        vm.expectRevert(abi.encodeWithSignature("Panic(uint256)", 0x12));
        target.failWithPanic();
    }

    function test_expectRevertFromReverter() public {
        Relay relay = new Relay();
        vm.expectRevert(bytes("target: no"), address(target));
        relay.relayFail(target);
    }

    function test_expectRevertOnACreation() public {
        vm.expectRevert();
        new Reverting();
    }

    function test_expectRevertCount() public {
        vm.expectRevert(Target.Closed.selector, 2);
        target.failClosed();
        target.failClosed();
    }

    function test_expectEmitEveryForm() public {
        vm.expectEmit();
        emit Moved(address(this), ALICE, 5);
        target.move(ALICE, 5);

        vm.expectEmit(address(target));
        emit Moved(address(this), ALICE, 6);
        target.move(ALICE, 6);

        vm.expectEmit(true, false, false, false);
        emit Moved(address(this), address(0), 0);
        target.move(ALICE, 7);

        vm.expectEmit(true, true, false, true, address(target));
        emit Moved(address(this), ALICE, 8);
        target.move(ALICE, 8);
    }

    function test_expectEmitInOrder() public {
        vm.expectEmit();
        emit Moved(address(this), ALICE, 1);
        vm.expectEmit();
        emit Noted("moved");
        target.move(ALICE, 1);
    }

    function test_expectCall() public {
        vm.expectCall(address(target), abi.encodeCall(Target.set, (5)));
        target.set(5);
        vm.expectCall(address(target), abi.encodeWithSelector(Target.set.selector), 2);
        target.set(1);
        target.set(2);
        vm.expectCall(address(target), 1 ether, abi.encodeCall(Target.touch, ()));
        target.touch{value: 1 ether}();
    }

    function test_mockCall() public {
        vm.mockCall(address(target), abi.encodeCall(Target.price, ()), abi.encode(uint256(5)));
        assertEq(target.price(), 5);
        vm.clearMockedCalls();
        assertEq(target.price(), 100);
    }

    function test_mockCallWithValue() public {
        vm.mockCall(address(target), 1, abi.encodeCall(Target.price, ()), abi.encode(uint256(6)));
        assertEq(target.price(), 100);
    }

    function test_mockCallRevert() public {
        vm.mockCallRevert(address(target), abi.encodeCall(Target.price, ()), bytes("mocked"));
        vm.expectRevert(bytes("mocked"));
        target.price();
    }

    function test_recordAccesses() public {
        vm.record();
        target.set(3);
        target.stored();
        (bytes32[] memory reads, bytes32[] memory writes) = vm.accesses(address(target));
        assertEq(writes.length, 1);
        assertEq(writes[0], bytes32(uint256(2)));
        assertEq(reads.length, 2);
    }

    function test_recordLogs() public {
        vm.recordLogs();
        target.move(ALICE, 9);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        assertEq(logs.length, 2);
        assertEq(logs[0].topics[0], keccak256("Moved(address,address,uint256)"));
        assertEq(logs[0].emitter, address(target));
        assertEq(abi.decode(logs[0].data, (uint256)), 9);
        assertEq(vm.getRecordedLogs().length, 0);
    }

    function test_label() public {
        vm.label(ALICE, "alice");
        assertEq(vm.getLabel(ALICE), "alice");
    }

    function test_addrAndSign() public pure {
        uint256 key = 0xA11CE;
        address signer = vm.addr(key);
        bytes32 digest = keccak256("message");
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(key, digest);
        assertEq(ecrecover(digest, v, r, s), signer);
    }

    function test_toString() public pure {
        assertEq(vm.toString(uint256(42)), "42");
        assertEq(vm.toString(int256(-42)), "-42");
        assertEq(vm.toString(true), "true");
        assertEq(vm.toString(address(0xA11CE)), "0x00000000000000000000000000000000000A11cE");
        assertEq(vm.toString(bytes32(uint256(1))), "0x0000000000000000000000000000000000000000000000000000000000000001");
        assertEq(vm.toString(bytes(hex"beef")), "0xbeef");
    }

    function test_parse() public pure {
        assertEq(vm.parseUint("42"), 42);
        vm.assertEq(vm.parseInt("-42"), -42);
        assertEq(vm.parseAddress("0x00000000000000000000000000000000000a11ce"), address(0xA11CE));
        assertEq(vm.parseBytes32("0x01"), bytes32(hex"01"));
        vm.assertEq(vm.parseBytes("0xbeef"), bytes(hex"beef"));
        assertEq(vm.parseBool("true"), true);
    }

    function test_snapshotAndRevertToState() public {
        uint256 snap = vm.snapshotState();
        target.set(100);
        vm.warp(5_000_000_000);
        assertEq(target.stored(), 100);
        assertTrue(vm.revertToState(snap));
        assertEq(target.stored(), 7);
        assertTrue(block.timestamp != 5_000_000_000);
        target.set(101);
        assertTrue(vm.revertToStateAndDelete(snap));
        assertEq(target.stored(), 7);
        assertTrue(!vm.revertToState(snap));
    }

    function testFuzz_assume(uint256 x) public pure {
        vm.assume(x % 2 == 0);
        assertEq(x % 2, 0);
    }

    function testFuzz_storedValue(uint128 v) public {
        target.set(v);
        assertEq(target.stored(), v);
    }

    function test_getCodeAndDeployCode() public {
        bytes memory code = vm.getCode("Target.sol:Target");
        assertEq(keccak256(code), keccak256(type(Target).creationCode));
        address made = vm.deployCode("Target.sol:Target", abi.encode(uint256(11)));
        assertEq(Target(made).stored(), 11);
        assertEq(keccak256(made.code), keccak256(vm.getDeployedCode("Target.sol:Target")));
        Target next = new Target(1);
        assertTrue(address(next) != made);
    }

    function test_envOr() public view {
        assertEq(vm.envOr("EPOCHS_SOLIDITY_TEST_UNSET", uint256(5)), 5);
        assertEq(vm.envOr("EPOCHS_SOLIDITY_TEST_VALUE", string("none")), "from-env");
        assertEq(vm.envOr("EPOCHS_SOLIDITY_TEST_UNSET", address(0xA11CE)), address(0xA11CE));
        assertEq(vm.envOr("EPOCHS_SOLIDITY_TEST_UNSET", true), true);
    }

    function test_assertions() public pure {
        vm.assertEq(uint256(1), uint256(1));
        vm.assertEq(int256(-1), int256(-1));
        vm.assertEq(bytes(hex"01"), bytes(hex"01"));
        vm.assertNotEq(uint256(1), uint256(2));
        vm.assertLt(uint256(1), uint256(2));
        vm.assertGt(uint256(2), uint256(1));
        vm.assertLe(uint256(2), uint256(2));
        vm.assertGe(int256(-1), int256(-2));
        vm.assertApproxEqAbs(uint256(100), uint256(103), uint256(3));
        vm.assertApproxEqRel(uint256(100), uint256(101), 0.02e18);
        vm.assertFalse(false);
        uint256[] memory a = new uint256[](2);
        a[0] = 1;
        a[1] = 2;
        vm.assertEq(a, a);
    }

    function test_unsupportedCheatcodeRevertsNamingIt() public {
        string[] memory cmd = new string[](1);
        cmd[0] = "true";
        (bool ok, bytes memory data) = address(vm).call(abi.encodeCall(Vm.ffi, (cmd)));
        assertTrue(!ok);
        assertEq(keccak256(data), keccak256(abi.encodeWithSignature("Error(string)", "vm.ffi: cheatcode ffi(string[]) is not supported on the epochs chain")));
    }

    function test_moreStateCheats() public {
        vm.setNonceUnsafe(ALICE, 3);
        assertEq(vm.getNonce(ALICE), 3);
        vm.record();
        target.set(1);
        vm.stopRecord();
        target.stored();
        (bytes32[] memory reads, ) = vm.accesses(address(target));
        assertEq(reads.length, 1);
        uint256 snap = vm.snapshot();
        target.set(2);
        assertTrue(vm.revertTo(snap));
        assertEq(target.stored(), 1);
        assertTrue(vm.deleteStateSnapshot(snap));
        assertTrue(!vm.revertTo(snap));
    }

    function test_envReads() public view {
        assertTrue(vm.envExists("EPOCHS_SOLIDITY_TEST_VALUE"));
        assertTrue(!vm.envExists("EPOCHS_SOLIDITY_TEST_UNSET"));
        assertEq(vm.envString("EPOCHS_SOLIDITY_TEST_VALUE"), "from-env");
    }

    function test_random() public {
        assertTrue(vm.randomAddress() != vm.randomAddress());
        assertTrue(vm.randomUint() != vm.randomUint());
        uint256 r = vm.randomUint(10, 20);
        assertTrue(r >= 10 && r <= 20);
        assertEq(vm.randomBytes(7).length, 7);
        vm.randomBool();
    }

    function test_base64() public pure {
        assertEq(vm.toBase64(bytes("hello?>")), "aGVsbG8/Pg==");
        assertEq(vm.toBase64URL(bytes("hello?>")), "aGVsbG8_Pg==");
    }

    function test_p256SignaturesVerifyOnTheChainsPrecompile() public view {
        uint256 key = 0x1234;
        bytes32 digest = keccak256("message");
        (uint256 x, uint256 y) = vm.publicKeyP256(key);
        (bytes32 r, bytes32 s) = vm.signP256(key, digest);
        // RIP-7212's P256VERIFY at 0x…0100: 1 (32 bytes) for a valid signature
        (bool ok, bytes memory out) = address(0x100).staticcall(abi.encode(digest, r, s, x, y));
        assertTrue(ok);
        assertEq(abi.decode(out, (uint256)), 1);
    }

    function test_computeAddresses() public {
        assertEq(vm.computeCreateAddress(address(this), vm.getNonce(address(this))), address(new Target(0)));
        bytes32 hash = keccak256(type(Target).creationCode);
        assertEq(vm.computeCreate2Address(bytes32(0), hash, address(this)), address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), bytes32(0), hash))))));
        assertEq(vm.computeCreate2Address(bytes32(0), hash), vm.computeCreate2Address(bytes32(0), hash, 0x4e59b44847b379578588920cA78FbF26c0B4956C));
    }

    /// forge-config: default.allow_internal_expect_revert = true
    function test_internalExpectRevertByInlineConfig() public {
        vm.expectRevert(abi.encodeWithSignature("Panic(uint256)", 0x11));
        _underflow(0);
    }

    function _underflow(uint256 x) internal pure returns (uint256) {
        return x - 1;
    }

    /// forge-config: default.fuzz.runs = 7
    function testFuzz_inlineRuns(uint8 x) public pure {
        x;
    }

    function test_consoleLogIsCaptured() public view {
        // console.sol's address and log(string) selector, without importing console.sol
        (bool ok, ) = address(0x000000000000000000636F6e736F6c652e6c6f67).staticcall(abi.encodeWithSignature("log(string)", "hello from a Solidity test"));
        ok;
    }
}
