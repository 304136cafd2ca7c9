// SPDX-License-Identifier: MIT
pragma solidity >=0.8.17;

import {Coin, PageRequest, PageResponse} from "./CosmosTypes.sol";

/// @dev Where the gov precompile lives on Cosmos EVM chains (cosmos/evm).
address constant GOV_PRECOMPILE_ADDRESS = 0x0000000000000000000000000000000000000805;

enum VoteOption {
    Unspecified,
    Yes,
    Abstain,
    No,
    NoWithVeto
}

/// `weight` is a decimal string ("1.000000000000000000").
struct WeightedVoteOption {
    VoteOption option;
    string weight;
}

struct WeightedVote {
    uint64 proposalId;
    address voter;
    WeightedVoteOption[] options;
    string metadata;
}

struct DepositData {
    uint64 proposalId;
    address depositor;
    Coin[] amount;
}

struct TallyResultData {
    string yes;
    string abstain;
    string no;
    string noWithVeto;
}

/// `status`: 1 deposit period, 2 voting period, 3 passed, 4 rejected, 5 failed. Times in Unix seconds.
struct ProposalData {
    uint64 id;
    string[] messages;
    uint32 status;
    TallyResultData finalTallyResult;
    uint64 submitTime;
    uint64 depositEndTime;
    Coin[] totalDeposit;
    uint64 votingStartTime;
    uint64 votingEndTime;
    string metadata;
    string title;
    string summary;
    address proposer;
}

struct GovParams {
    int64 votingPeriod;
    Coin[] minDeposit;
    int64 maxDepositPeriod;
    string quorum;
    string threshold;
    string vetoThreshold;
    string minInitialDepositRatio;
    string proposalCancelRatio;
    string proposalCancelDest;
    int64 expeditedVotingPeriod;
    string expeditedThreshold;
    Coin[] expeditedMinDeposit;
    bool burnVoteQuorum;
    bool burnProposalDepositPrevote;
    bool burnVoteVeto;
    string minDepositRatio;
}

/// @title The gov precompile: governance proposals, votes and deposits.
/// @notice The selectors, events and mutability of cosmos/evm's `precompiles/gov/abi.json`. On this
/// chain the transactions run as x/gov runs them (submit, deposit, vote, cancel; the proposer, depositor
/// or voter must be msg.sender), the end block tallies voting periods that ran out and executes passed
/// proposals' messages, and the queries answer over them (docs/cosmos-precompiles.md, "Gov"). A test may
/// also write a proposal as it likes (`cosmos_setProposal`, `hre.epochs.cosmos.setProposal`).
/// @custom:address 0x0000000000000000000000000000000000000805
interface IGov {
    event SubmitProposal(address indexed proposer, uint64 proposalId);
    event CancelProposal(address indexed proposer, uint64 proposalId);
    event Deposit(address indexed depositor, uint64 proposalId, Coin[] amount);
    event Vote(address indexed voter, uint64 proposalId, uint8 option);
    event VoteWeighted(address indexed voter, uint64 proposalId, WeightedVoteOption[] options);

    function submitProposal(address proposer, bytes calldata jsonProposal, Coin[] calldata deposit) external returns (uint64 proposalId);

    function cancelProposal(address proposer, uint64 proposalId) external returns (bool success);

    function deposit(address depositor, uint64 proposalId, Coin[] calldata amount) external returns (bool success);

    function vote(address voter, uint64 proposalId, VoteOption option, string memory metadata) external returns (bool success);

    function voteWeighted(address voter, uint64 proposalId, WeightedVoteOption[] calldata options, string memory metadata)
        external
        returns (bool success);

    function getVote(uint64 proposalId, address voter) external view returns (WeightedVote memory vote);

    function getVotes(uint64 proposalId, PageRequest calldata pagination)
        external
        view
        returns (WeightedVote[] memory votes, PageResponse memory pageResponse);

    function getDeposit(uint64 proposalId, address depositor) external view returns (DepositData memory deposit);

    function getDeposits(uint64 proposalId, PageRequest calldata pagination)
        external
        view
        returns (DepositData[] memory deposits, PageResponse memory pageResponse);

    function getTallyResult(uint64 proposalId) external view returns (TallyResultData memory tallyResult);

    function getProposal(uint64 proposalId) external view returns (ProposalData memory proposal);

    function getProposals(uint32 proposalStatus, address voter, address depositor, PageRequest calldata pagination)
        external
        view
        returns (ProposalData[] memory proposals, PageResponse memory pageResponse);

    function getParams() external view returns (GovParams memory params);

    function getConstitution() external view returns (string memory constitution);
}
