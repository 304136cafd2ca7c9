// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Coin} from "../precompiles/CosmosTypes.sol";
import {IGov, GOV_PRECOMPILE_ADDRESS} from "../precompiles/IGov.sol";
import {IStaking, STAKING_PRECOMPILE_ADDRESS} from "../precompiles/IStaking.sol";
import {IERC20Precompile, WERC20_NATIVE_ADDRESS} from "../precompiles/IWERC20.sol";
import {IEpochHooks} from "../IEpochHooks.sol";
import {IEpochs} from "../IEpochs.sol";

/// An epochs hook that calls back into the chain's modules while the epoch ticks (inside the block's
/// begin block, after distribution's own epoch work): it delegates, undelegates, submits and deposits
/// on a proposal and moves the native coin through its WERC20, each time its epoch ends.
contract ReentrantHook is IEpochHooks {
    IStaking private constant STAKING = IStaking(STAKING_PRECOMPILE_ADDRESS);
    IGov private constant GOV = IGov(GOV_PRECOMPILE_ADDRESS);
    IEpochs private constant EPOCHS = IEpochs(0x0000000000000000000000000000000000000900);

    string public validator;
    address public payee;
    uint256 public ticks;
    uint64 public lastProposal;

    constructor(string memory validator_, address payee_) payable {
        validator = validator_;
        payee = payee_;
        EPOCHS.registerHooks();
    }

    receive() external payable {}

    function beforeEpochStart(string calldata, int64) external {}

    function afterEpochEnd(string calldata, int64) external {
        require(msg.sender == address(EPOCHS), "only the epochs module");
        ticks += 1;
        STAKING.delegate(address(this), validator, 2 ether);
        STAKING.undelegate(address(this), validator, 1 ether);
        Coin[] memory none = new Coin[](0);
        lastProposal = GOV.submitProposal(address(this), bytes('{"messages":[],"metadata":"","title":"from a hook","summary":"reentrant"}'), none);
        Coin[] memory deposit = new Coin[](1);
        deposit[0] = Coin("atest", 1 ether);
        GOV.deposit(address(this), lastProposal, deposit);
        require(IERC20Precompile(WERC20_NATIVE_ADDRESS).transfer(payee, 1 ether), "werc20 transfer");
    }
}
