// SPDX-License-Identifier: MIT
pragma solidity >=0.8.17;

/// @dev Where the P-256 (secp256r1) verifier lives on Cosmos EVM chains (cosmos/evm, Evmos) and on
/// chains with RIP-7212 or EIP-7951.
address constant P256_PRECOMPILE_ADDRESS = 0x0000000000000000000000000000000000000100;

/// @title Verifying P-256 signatures (passkeys, WebAuthn) through the chain's precompile.
/// @notice The precompile takes hash ‖ r ‖ s ‖ x ‖ y (160 bytes) and returns the 32-byte word 1 for a
/// valid signature, nothing otherwise. It costs 3,450 gas on Evmos and cosmos/evm (RIP-7212's
/// price); 6,900 where it is Osaka's EIP-7951.
/// @custom:address 0x0000000000000000000000000000000000000100
library P256 {
    /// @return valid Whether (r, s) is a signature of `hash` by the key (x, y); false when the
    /// precompile is missing, the call runs out of gas, or any value is out of range.
    function verify(bytes32 hash, bytes32 r, bytes32 s, bytes32 x, bytes32 y) internal view returns (bool valid) {
        (bool ok, bytes memory out) = P256_PRECOMPILE_ADDRESS.staticcall(abi.encode(hash, r, s, x, y));
        return ok && out.length == 32 && abi.decode(out, (uint256)) == 1;
    }
}
