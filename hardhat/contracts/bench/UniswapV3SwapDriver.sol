// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

// The calls of a Uniswap v3 pool the driver makes (the pool itself is npm's v3-core artifact).
interface IUniswapV3PoolCalls {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, bytes calldata data)
        external
        returns (int256 amount0, int256 amount1);
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external
        returns (uint256 amount0, uint256 amount1);
    function burn(int24 tickLower, int24 tickUpper, uint128 amount) external returns (uint256 amount0, uint256 amount1);
    function collect(address recipient, int24 tickLower, int24 tickUpper, uint128 amount0Requested, uint128 amount1Requested)
        external
        returns (uint128 amount0, uint128 amount1);
}

/// Drives one pool densely for the peer bench: many swaps per transaction, alternating direction so the
/// price stays in range, with a narrow position minted and the previous one burned every `mintEvery` swaps.
/// It pays the pool from its own balances in the pool's callbacks: fund it with both tokens first.
contract UniswapV3SwapDriver {
    // TickMath's bounds: a swap limited just inside them never stops on its limit here.
    uint160 internal constant MIN_SQRT_RATIO_PLUS_ONE = 4295128740;
    uint160 internal constant MAX_SQRT_RATIO_MINUS_ONE = 1461446703485210103287273052203988822378723970341;
    int24 internal constant TICK_SPACING = 60;

    IUniswapV3PoolCalls public immutable pool;
    IERC20 public immutable token0;
    IERC20 public immutable token1;

    /// The narrow position minted last (none while liquidity is 0).
    int24 public positionLower;
    int24 public positionUpper;
    uint128 public positionLiquidity;

    constructor(IUniswapV3PoolCalls pool_) {
        pool = pool_;
        token0 = IERC20(pool_.token0());
        token1 = IERC20(pool_.token1());
    }

    /// Swaps `first` to `first + count - 1`: exact input of `amountIn` plus a little that varies by swap,
    /// to one of 16 recipients.
    function run(uint256 first, uint256 count, uint256 amountIn, uint256 mintEvery, uint128 mintLiquidity) external {
        for (uint256 i = first; i < first + count; i++) {
            if (mintEvery != 0 && i % mintEvery == 0) _movePosition(i / mintEvery, mintLiquidity);
            bool zeroForOne = i % 2 == 0;
            address recipient = address(uint160(0x10000 + (i % 16)));
            pool.swap(
                recipient,
                zeroForOne,
                int256(amountIn + (i % 97) * 1e12),
                zeroForOne ? MIN_SQRT_RATIO_PLUS_ONE : MAX_SQRT_RATIO_MINUS_ONE,
                ""
            );
        }
    }

    function _movePosition(uint256 round, uint128 liquidity) internal {
        if (positionLiquidity != 0) {
            pool.burn(positionLower, positionUpper, positionLiquidity);
            pool.collect(address(this), positionLower, positionUpper, type(uint128).max, type(uint128).max);
        }
        int24 width = TICK_SPACING * int24(int256(1 + (round % 8)));
        positionLower = -width;
        positionUpper = width;
        positionLiquidity = liquidity;
        pool.mint(address(this), -width, width, liquidity, "");
    }

    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        require(msg.sender == address(pool), "not the pool");
        if (amount0Delta > 0) require(token0.transfer(msg.sender, uint256(amount0Delta)), "token0 transfer");
        if (amount1Delta > 0) require(token1.transfer(msg.sender, uint256(amount1Delta)), "token1 transfer");
    }

    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata) external {
        require(msg.sender == address(pool), "not the pool");
        if (amount0Owed > 0) require(token0.transfer(msg.sender, amount0Owed), "token0 transfer");
        if (amount1Owed > 0) require(token1.transfer(msg.sender, amount1Owed), "token1 transfer");
    }
}
