// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20Upgradeable} from "@openzeppelin/contracts-upgradeable/token/ERC20/ERC20Upgradeable.sol";
import {Initializable} from "@openzeppelin/contracts-upgradeable/proxy/utils/Initializable.sol";

/// The ERC-20 implementation that sits behind the DelegateProxy. State lives in the proxy, so it is
/// set up through `initialize` (called via the proxy) instead of a constructor.
contract ApprovalToken is Initializable, ERC20Upgradeable {
    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor() {
        _disableInitializers();
    }

    function initialize(string calldata name_, string calldata symbol_, address holder, uint256 supply)
        external
        initializer
    {
        __ERC20_init(name_, symbol_);
        _mint(holder, supply);
    }

    /// Emits one standard Approval per spender from msg.sender, so benches can produce many events
    /// in few transactions. Each call is a plain `_approve`, so the event is the ERC-20 one.
    function approveMany(address[] calldata spenders, uint256[] calldata values) external returns (bool) {
        require(spenders.length == values.length, "ApprovalToken: length mismatch");
        for (uint256 i = 0; i < spenders.length; i++) {
            _approve(msg.sender, spenders[i], values[i]);
        }
        return true;
    }
}
