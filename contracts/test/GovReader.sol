// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {IGov, GOV_PRECOMPILE_ADDRESS, ProposalData, VoteOption, WeightedVote} from "../precompiles/IGov.sol";

/// A contract that acts on governance outcomes it reads through the gov precompile.
contract GovReader {
    IGov private constant GOV = IGov(GOV_PRECOMPILE_ADDRESS);

    function passed(uint64 id) external view returns (bool) {
        ProposalData memory p = GOV.getProposal(id);
        return p.status == 3;
    }

    function votedYes(uint64 id, address voter) external view returns (bool) {
        WeightedVote memory v = GOV.getVote(id, voter);
        return v.options.length == 1 && v.options[0].option == VoteOption.Yes;
    }
}
