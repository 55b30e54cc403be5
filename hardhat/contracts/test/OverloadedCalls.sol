// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

// Test contract for ABI edge cases: overloaded view functions (the same name over bytes32, uint256,
// address and (bytes4,uint8)) and overloaded events, so a subgraph must pick a variant by signature.
contract OverloadedCalls {
    event Tagged(bytes32 tag, uint256 amount);
    event Tagged(address indexed who, uint256 amount);
    event Tagged(string label);

    /** The tag as received: a caller that sent fewer than 32 bytes sees how they were padded. */
    function echo(bytes32 tag) external pure returns (bytes32) {
        return tag;
    }

    function echo(uint256 n) external pure returns (uint256) {
        return n * 2;
    }

    function echo(address who) external pure returns (address) {
        return who;
    }

    function echo(bytes4 prefix, uint8 n) external pure returns (uint256) {
        return uint256(uint32(prefix)) + n;
    }

    /** Reverts for the zero tag, for `try_` calls. */
    function strict(bytes32 tag) external pure returns (bytes32) {
        require(tag != bytes32(0), "zero tag");
        return keccak256(abi.encodePacked(tag));
    }

    /** Emits the three `Tagged` variants in one transaction. */
    function emitTagged(bytes32 tagValue, uint256 amount, string calldata label) external {
        emit Tagged(tagValue, amount);
        emit Tagged(msg.sender, amount);
        emit Tagged(label);
    }
}
