// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// The cheatcodes this repository's own Solidity tests call, with forge-std's signatures (its src/Vm.sol).
/// The repository's tests run offline, so they use this and TestBase.sol instead of forge-std.
interface Vm {
    struct Log {
        bytes32[] topics;
        bytes data;
        address emitter;
    }

    function warp(uint256) external;
    function roll(uint256) external;
    function fee(uint256) external;
    function chainId(uint256) external;
    function coinbase(address) external;
    function prevrandao(bytes32) external;
    function txGasPrice(uint256) external;
    function getBlockNumber() external view returns (uint256);
    function getBlockTimestamp() external view returns (uint256);
    function prank(address) external;
    function prank(address, address) external;
    function startPrank(address) external;
    function startPrank(address, address) external;
    function stopPrank() external;
    function deal(address, uint256) external;
    function store(address, bytes32, bytes32) external;
    function load(address, bytes32) external view returns (bytes32);
    function etch(address, bytes calldata) external;
    function getNonce(address) external view returns (uint64);
    function setNonce(address, uint64) external;
    function expectRevert() external;
    function expectRevert(bytes4) external;
    function expectRevert(bytes calldata) external;
    function expectRevert(address) external;
    function expectRevert(bytes calldata, address) external;
    function expectRevert(bytes4, uint64) external;
    function expectPartialRevert(bytes4) external;
    function expectEmit() external;
    function expectEmit(address) external;
    function expectEmit(bool, bool, bool, bool) external;
    function expectEmit(bool, bool, bool, bool, address) external;
    function expectCall(address, bytes calldata) external;
    function expectCall(address, uint256, bytes calldata) external;
    function expectCall(address, bytes calldata, uint64) external;
    function mockCall(address, bytes calldata, bytes calldata) external;
    function mockCall(address, uint256, bytes calldata, bytes calldata) external;
    function mockCallRevert(address, bytes calldata, bytes calldata) external;
    function clearMockedCalls() external;
    function record() external;
    function accesses(address) external returns (bytes32[] memory readSlots, bytes32[] memory writeSlots);
    function recordLogs() external;
    function getRecordedLogs() external returns (Log[] memory);
    function label(address, string calldata) external;
    function getLabel(address) external view returns (string memory);
    function addr(uint256) external pure returns (address);
    function sign(uint256, bytes32) external pure returns (uint8, bytes32, bytes32);
    function toString(address) external pure returns (string memory);
    function toString(bytes calldata) external pure returns (string memory);
    function toString(bytes32) external pure returns (string memory);
    function toString(bool) external pure returns (string memory);
    function toString(uint256) external pure returns (string memory);
    function toString(int256) external pure returns (string memory);
    function parseBytes(string calldata) external pure returns (bytes memory);
    function parseAddress(string calldata) external pure returns (address);
    function parseUint(string calldata) external pure returns (uint256);
    function parseInt(string calldata) external pure returns (int256);
    function parseBytes32(string calldata) external pure returns (bytes32);
    function parseBool(string calldata) external pure returns (bool);
    function snapshotState() external returns (uint256);
    function revertToState(uint256) external returns (bool);
    function revertToStateAndDelete(uint256) external returns (bool);
    function assume(bool) external pure;
    function getCode(string calldata) external view returns (bytes memory);
    function getDeployedCode(string calldata) external view returns (bytes memory);
    function deployCode(string calldata) external returns (address);
    function deployCode(string calldata, bytes calldata) external returns (address);
    function envOr(string calldata, uint256) external view returns (uint256);
    function envOr(string calldata, string calldata) external view returns (string memory);
    function envOr(string calldata, address) external view returns (address);
    function envOr(string calldata, bool) external view returns (bool);
    function assertEq(uint256, uint256) external pure;
    function assertEq(uint256, uint256, string calldata) external pure;
    function assertEq(address, address) external pure;
    function assertEq(bytes32, bytes32) external pure;
    function assertEq(string calldata, string calldata) external pure;
    function assertEq(bytes calldata, bytes calldata) external pure;
    function assertEq(bool, bool) external pure;
    function assertEq(int256, int256) external pure;
    function assertEq(uint256[] calldata, uint256[] calldata) external pure;
    function assertNotEq(uint256, uint256) external pure;
    function assertTrue(bool) external pure;
    function assertTrue(bool, string calldata) external pure;
    function assertFalse(bool) external pure;
    function assertLt(uint256, uint256) external pure;
    function assertGt(uint256, uint256) external pure;
    function assertLe(uint256, uint256) external pure;
    function assertGe(int256, int256) external pure;
    function assertApproxEqAbs(uint256, uint256, uint256) external pure;
    function assertApproxEqRel(uint256, uint256, uint256) external pure;
    function assertEqDecimal(uint256, uint256, uint256) external pure;
    /// Not supported on the epochs chain: its call reverts naming it.
    function ffi(string[] calldata) external returns (bytes memory);
}
