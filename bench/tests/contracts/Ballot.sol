// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A governor in the shape of OpenZeppelin's, in a few lines: voting opens `votingDelay` blocks after a
/// proposal and lasts `votingPeriod` blocks (block numbers, as Governor counts them); a passed proposal
/// waits `timelock` seconds in the queue, then its call runs.
contract Ballot {
    enum State { Pending, Active, Defeated, Succeeded, Queued, Executed }

    struct Proposal {
        address target;
        bytes data;
        uint256 voteStart;
        uint256 voteEnd;
        uint256 forVotes;
        uint256 againstVotes;
        uint256 eta;
        bool executed;
    }

    uint256 public constant votingDelay = 7200;
    uint256 public constant votingPeriod = 50400;
    uint256 public constant timelock = 2 days;
    uint256 public immutable quorum;
    mapping(address => uint256) public weight;
    mapping(uint256 => mapping(address => bool)) public hasVoted;
    Proposal[] private _proposals;

    event ProposalCreated(uint256 indexed id, address target, uint256 voteStart, uint256 voteEnd);
    event VoteCast(address indexed voter, uint256 indexed id, bool support, uint256 weight);
    event ProposalQueued(uint256 indexed id, uint256 eta);
    event ProposalExecuted(uint256 indexed id);

    constructor(address[] memory voters, uint256 quorum_) {
        for (uint256 i = 0; i < voters.length; i++) weight[voters[i]] = 1 + i;
        quorum = quorum_;
    }

    function propose(address target, bytes calldata data) external returns (uint256 id) {
        require(weight[msg.sender] > 0, "not a voter");
        id = _proposals.length;
        uint256 start = block.number + votingDelay;
        _proposals.push(Proposal(target, data, start, start + votingPeriod, 0, 0, 0, false));
        emit ProposalCreated(id, target, start, start + votingPeriod);
    }

    function state(uint256 id) public view returns (State) {
        Proposal storage p = _proposals[id];
        if (p.executed) return State.Executed;
        if (p.eta != 0) return State.Queued;
        if (block.number <= p.voteStart) return State.Pending;
        if (block.number <= p.voteEnd) return State.Active;
        return p.forVotes > p.againstVotes && p.forVotes >= quorum ? State.Succeeded : State.Defeated;
    }

    function castVote(uint256 id, bool support) external {
        require(state(id) == State.Active, "vote not active");
        require(!hasVoted[id][msg.sender], "already voted");
        uint256 w = weight[msg.sender];
        require(w > 0, "not a voter");
        hasVoted[id][msg.sender] = true;
        if (support) _proposals[id].forVotes += w;
        else _proposals[id].againstVotes += w;
        emit VoteCast(msg.sender, id, support, w);
    }

    function queue(uint256 id) external {
        require(state(id) == State.Succeeded, "proposal not successful");
        uint256 eta = block.timestamp + timelock;
        _proposals[id].eta = eta;
        emit ProposalQueued(id, eta);
    }

    function execute(uint256 id) external {
        Proposal storage p = _proposals[id];
        require(state(id) == State.Queued, "proposal not queued");
        require(block.timestamp >= p.eta, "timelock not passed");
        p.executed = true;
        (bool ok, ) = p.target.call(p.data);
        require(ok, "call failed");
        emit ProposalExecuted(id);
    }
}
