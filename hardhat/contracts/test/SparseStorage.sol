// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// Test fixture for the storage-range emulation: storage with gaps, zero slots, a packed slot and
/// mappings whose entries sit at keccak-derived slots. Slot numbers are part of the tests; do not reorder.
contract SparseStorage {
    struct Position {
        uint256 amount; // mapping slot + 0
        uint256 flags; // mapping slot + 1 (left zero in the tests: a gap inside the entry)
        uint256 owner; // mapping slot + 2
    }

    uint256 public first = 1; // slot 0
    uint256 public empty; // slot 1, zero
    uint256 public beef = 0xbeef; // slot 2
    uint256[3] private gap; // slots 3-5, zero
    address public deployer; // slot 6
    uint128 public packedLow = 7; // slot 7 (low half)
    uint128 public packedHigh = 9; // slot 7 (high half)
    mapping(uint256 => Position) public positions; // slot 8: the root slot itself stays zero
    mapping(address => uint256) public balances; // slot 9
    uint256[20] private wideGap; // slots 10-29, zero
    uint256 public far = 42; // slot 30

    constructor() {
        deployer = msg.sender;
    }

    function setPosition(uint256 id, uint256 amount, uint256 owner) external {
        positions[id] = Position(amount, 0, owner);
    }

    function setBalance(address account, uint256 amount) external {
        balances[account] = amount;
    }

    /// Writes `value` to a raw slot (value 0 clears it).
    function store(uint256 slot, uint256 value) external {
        assembly {
            sstore(slot, value)
        }
    }

    /// Fills `count` raw slots from `from`; every `zeroEvery`-th one (when non-zero) is left zero.
    function fill(uint256 from, uint256 count, uint256 zeroEvery) external {
        for (uint256 i = 0; i < count; i++) {
            uint256 value = (zeroEvery != 0 && (i + 1) % zeroEvery == 0) ? 0 : (from + i) * 0x10001 + 1;
            uint256 slot = from + i;
            assembly {
                sstore(slot, value)
            }
        }
    }
}
