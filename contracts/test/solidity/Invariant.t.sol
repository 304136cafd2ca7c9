// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {TestBase} from "./TestBase.sol";

/// A counter whose total never goes below what was added, for an invariant test.
contract Ledger {
    uint256 public total;
    uint256 public added;

    function add(uint64 amount) external {
        total += amount;
        added += amount;
    }

    function take(uint64 amount) external {
        if (amount > total) revert("not enough");
        total -= amount;
    }
}

/// An invariant test as forge runs one: random calls to what setUp deployed, the invariant after each.
contract LedgerInvariantTest is TestBase {
    Ledger internal ledger;

    function setUp() public {
        ledger = new Ledger();
    }

    /// forge-config: default.invariant.runs = 4
    /// forge-config: default.invariant.depth = 25
    function invariant_totalNeverAboveWhatWasAdded() public view {
        assertTrue(ledger.total() <= ledger.added());
    }
}
