// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

// Test contracts for the factory pattern (data source templates): a factory creates pools, a pool
// takes deposits and opens vaults (a factory of its own), a vault is pinged. A pool's constructor
// deposits already, so its first Deposit comes before the factory's PoolCreated in the same block.

contract Vault {
    event Ping(address indexed from, uint256 count);

    uint256 public pings;

    function ping() external {
        pings += 1;
        emit Ping(msg.sender, pings);
    }
}

contract Pool {
    event Deposit(address indexed who, uint256 amount);
    event VaultOpened(address vault);

    uint256 public total;
    uint256 public deposits;

    constructor(address creator, uint256 initial) {
        if (initial > 0) {
            total = initial;
            deposits = 1;
            emit Deposit(creator, initial);
        }
    }

    function deposit(uint256 amount) external {
        total += amount;
        deposits += 1;
        emit Deposit(msg.sender, amount);
    }

    function openVault() external returns (address) {
        Vault vault = new Vault();
        emit VaultOpened(address(vault));
        return address(vault);
    }
}

contract PoolFactory {
    event PoolCreated(address indexed creator, address pool, uint256 index);

    address[] public pools;

    function createPool(uint256 initial) external returns (address) {
        Pool pool = new Pool(msg.sender, initial);
        pools.push(address(pool));
        emit PoolCreated(msg.sender, address(pool), pools.length - 1);
        return address(pool);
    }

    /// Several pools in one transaction: their triggers share one block.
    function createPools(uint256 count, uint256 initial) external {
        for (uint256 i = 0; i < count; i++) {
            Pool pool = new Pool(msg.sender, initial);
            pools.push(address(pool));
            emit PoolCreated(msg.sender, address(pool), pools.length - 1);
        }
    }

    /// One deposit into each of pools[from..to): many events from many data sources per transaction.
    function depositAll(uint256 from, uint256 to, uint256 amount) external {
        for (uint256 i = from; i < to; i++) Pool(pools[i]).deposit(amount);
    }

    /// `times` deposits into one pool: many events from one data source per transaction.
    function depositRepeat(uint256 index, uint256 times, uint256 amount) external {
        Pool pool = Pool(pools[index]);
        for (uint256 i = 0; i < times; i++) pool.deposit(amount);
    }

    function poolCount() external view returns (uint256) {
        return pools.length;
    }
}
