// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

// Test contract for file data sources: each post names an IPFS file (its metadata) by a content path.
// A subgraph creates a file data source from the path; `withContext` asks it to pass a context along.
contract ContentRegistry {
    event Published(uint256 indexed id, address indexed author, string cid, bool withContext);

    uint256 public count;

    function publish(string calldata cid, bool withContext) external {
        count += 1;
        emit Published(count, msg.sender, cid, withContext);
    }

    /** Several posts in one transaction (so in one block). */
    function publishMany(string[] calldata cids, bool withContext) external {
        for (uint256 i = 0; i < cids.length; i++) {
            count += 1;
            emit Published(count, msg.sender, cids[i], withContext);
        }
    }
}
