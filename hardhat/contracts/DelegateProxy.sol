// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// An EIP-897 DelegateProxy. The implementation and admin live in EIP-1967 slots so they never
/// collide with the implementation's own storage.
contract DelegateProxy {
    /// keccak256("eip1967.proxy.implementation") - 1
    bytes32 private constant IMPLEMENTATION_SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;
    /// keccak256("eip1967.proxy.admin") - 1
    bytes32 private constant ADMIN_SLOT = 0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103;

    event Upgraded(address indexed implementation);

    error NotAdmin(address caller);
    error NotAContract(address implementation);

    constructor(address implementation_, bytes memory initData) payable {
        _setAdmin(msg.sender);
        _setImplementation(implementation_);
        if (initData.length > 0) {
            (bool ok, bytes memory reason) = implementation_.delegatecall(initData);
            if (!ok) _bubble(reason);
        }
    }

    /// EIP-897: 2 means upgradeable.
    function proxyType() external pure returns (uint256) {
        return 2;
    }

    /// EIP-897: the address calls are delegated to.
    function implementation() public view returns (address impl) {
        bytes32 slot = IMPLEMENTATION_SLOT;
        assembly {
            impl := sload(slot)
        }
    }

    function proxyAdmin() public view returns (address admin) {
        bytes32 slot = ADMIN_SLOT;
        assembly {
            admin := sload(slot)
        }
    }

    function upgradeTo(address newImplementation) external {
        if (msg.sender != proxyAdmin()) revert NotAdmin(msg.sender);
        _setImplementation(newImplementation);
    }

    fallback() external payable {
        _delegate(implementation());
    }

    receive() external payable {
        _delegate(implementation());
    }

    function _setImplementation(address newImplementation) private {
        if (newImplementation.code.length == 0) revert NotAContract(newImplementation);
        bytes32 slot = IMPLEMENTATION_SLOT;
        assembly {
            sstore(slot, newImplementation)
        }
        emit Upgraded(newImplementation);
    }

    function _setAdmin(address admin) private {
        bytes32 slot = ADMIN_SLOT;
        assembly {
            sstore(slot, admin)
        }
    }

    function _delegate(address impl) private {
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), impl, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok
            case 0 { revert(0, returndatasize()) }
            default { return(0, returndatasize()) }
        }
    }

    function _bubble(bytes memory reason) private pure {
        assembly {
            revert(add(reason, 32), mload(reason))
        }
    }
}
