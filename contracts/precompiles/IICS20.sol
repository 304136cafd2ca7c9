// SPDX-License-Identifier: MIT
pragma solidity >=0.8.17;

/// @dev Where the ICS20 precompile lives on Cosmos EVM chains (cosmos/evm).
address constant ICS20_PRECOMPILE_ADDRESS = 0x0000000000000000000000000000000000000802;

/// An IBC height: a timeout at the counterparty's height (0, 0 for none).
struct IbcHeight {
    uint64 revisionNumber;
    uint64 revisionHeight;
}

/// One hop of a token's trace: the port and channel it came through.
struct Hop {
    string portId;
    string channelId;
}

/// ibc-go's Denom: a base denom and its trace, the last hop first.
struct IbcDenom {
    string base;
    Hop[] trace;
}

struct IbcPageRequest {
    bytes key;
    uint64 offset;
    uint64 limit;
    bool countTotal;
    bool reverse;
}

struct IbcPageResponse {
    bytes nextKey;
    uint64 total;
}

/// @title The ICS20 precompile: send coins to another chain over IBC from a contract.
/// @notice The selectors, events and mutability of cosmos/evm's `precompiles/ics20/abi.json`. `sender` must
/// be the caller. The coin (the native denom, or an `ibc/…` voucher) is escrowed in the channel's escrow
/// account, or burned when it goes back where it came from; an error acknowledgement or a timeout refunds it.
/// @custom:address 0x0000000000000000000000000000000000000802
interface IICS20 {
    event IBCTransfer(address indexed sender, string indexed receiver, string sourcePort, string sourceChannel, string denom, uint256 amount, string memo);

    /// Sends `amount` of `denom` to `receiver` on the chain at the other end of `sourceChannel`; the packet's sequence.
    function transfer(
        string memory sourcePort,
        string memory sourceChannel,
        string memory denom,
        uint256 amount,
        address sender,
        string memory receiver,
        IbcHeight memory timeoutHeight,
        uint64 timeoutTimestamp,
        string memory memo
    ) external returns (uint64 nextSequence);

    /// The denom of a voucher hash (with or without `ibc/`); empty when this chain has not seen it.
    function denom(string memory hash) external view returns (IbcDenom memory denom);

    function denoms(IbcPageRequest memory pageRequest) external view returns (IbcDenom[] memory denoms, IbcPageResponse memory pageResponse);

    /// The hash of a trace (`transfer/channel-0/uatom`) this chain has seen; "" otherwise.
    function denomHash(string memory trace) external view returns (string memory hash);
}
