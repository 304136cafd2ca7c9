// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Storage-heavy calls: a name registry with loops, panics and string reverts.
contract Registry {
    mapping(bytes32 => address) public ownerOf;
    bytes32[] public names;

    event Registered(bytes32 indexed name, address indexed owner, uint256 index);

    function register(string calldata name) external {
        bytes32 key = keccak256(bytes(name));
        require(ownerOf[key] == address(0), "taken");
        ownerOf[key] = msg.sender;
        names.push(key);
        emit Registered(key, msg.sender, names.length - 1);
    }

    function registerMany(uint256 count, uint256 salt) external {
        for (uint256 i = 0; i < count; i++) {
            bytes32 key = keccak256(abi.encode(salt, i));
            ownerOf[key] = msg.sender;
            names.push(key);
        }
    }

    function count() external view returns (uint256) {
        return names.length;
    }

    function at(uint256 i) external view returns (bytes32) {
        return names[i]; // panics (0x32) when out of range
    }

    function divide(uint256 a, uint256 b) external pure returns (uint256) {
        return a / b; // panics (0x12) on zero
    }
}
