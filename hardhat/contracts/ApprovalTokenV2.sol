// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ApprovalToken} from "./ApprovalToken.sol";

/// A second implementation used to show that an upgrade keeps balances and allowances.
contract ApprovalTokenV2 is ApprovalToken {
    function version() external pure returns (string memory) {
        return "2";
    }
}
