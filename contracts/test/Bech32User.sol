// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {BECH32_PRECOMPILE_ADDRESS, IBech32} from "../precompiles/IBech32.sol";

/// A contract that names its users by their Cosmos address, through the bech32 precompile.
contract Bech32User {
    IBech32 private constant BECH32 = IBech32(BECH32_PRECOMPILE_ADDRESS);
    mapping(address => string) public cosmosName;

    event Named(address indexed user, string cosmosAddress);

    function register(string calldata prefix) external returns (string memory name) {
        name = BECH32.hexToBech32(msg.sender, prefix);
        cosmosName[msg.sender] = name;
        emit Named(msg.sender, name);
    }

    function owner(string calldata cosmosAddress) external returns (address) {
        return BECH32.bech32ToHex(cosmosAddress);
    }

    /// A failing conversion, caught: the precompile's failure returns no data.
    function tryRegister(string calldata prefix) external returns (bool ok, bytes memory reason) {
        try BECH32.hexToBech32{gas: 100_000}(msg.sender, prefix) returns (string memory) {
            return (true, "");
        } catch (bytes memory data) {
            return (false, data);
        }
    }
}
