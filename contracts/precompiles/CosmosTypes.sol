// SPDX-License-Identifier: MIT
pragma solidity >=0.8.17;

/// @dev The Cosmos types cosmos/evm's precompiles share (its `precompiles/common/Types.sol` shapes).

/// A coin: a bank denom and an integer amount (the native coin has 18 decimals).
struct Coin {
    string denom;
    uint256 amount;
}

/// A decimal coin: `amount` is the decimal times 10^precision (the chain's LegacyDec: precision 18).
struct DecCoin {
    string denom;
    uint256 amount;
    uint8 precision;
}

/// A decimal: `value` times 10^-precision.
struct Dec {
    uint256 value;
    uint8 precision;
}

/// Cosmos pagination of a query: `key` (the previous page's `nextKey`) or `offset`, up to `limit` (0 = 100).
struct PageRequest {
    bytes key;
    uint64 offset;
    uint64 limit;
    bool countTotal;
    bool reverse;
}

struct PageResponse {
    bytes nextKey;
    uint64 total;
}
