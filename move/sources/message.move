/// One message per account. The first `set_message` creates the holder; every later one
/// records the change on the holder's event handle, then replaces the message.
module dev::message {
    use std::error;
    use std::signer;
    use std::string::String;
    use aptos_framework::account;
    use aptos_framework::event;

    #[test_only]
    use std::string::utf8;
    #[test_only]
    use std::vector;

    /// There is no `MessageHolder` under the address.
    const ENO_MESSAGE: u64 = 0;

    struct MessageHolder has key {
        message: String,
        message_change_events: event::EventHandle<MessageChangeEvent>,
    }

    struct MessageChangeEvent has drop, store {
        from_message: String,
        to_message: String,
    }

    #[view]
    /// The stored message; aborts with `error::not_found(ENO_MESSAGE)` (0x60000) when none was set.
    public fun get_message(addr: address): String acquires MessageHolder {
        assert!(exists<MessageHolder>(addr), error::not_found(ENO_MESSAGE));
        borrow_global<MessageHolder>(addr).message
    }

    /// Stores `message` under the signer's address.
    public entry fun set_message(account: &signer, message: String) acquires MessageHolder {
        let addr = signer::address_of(account);
        if (!exists<MessageHolder>(addr)) {
            // First write: the holder and its event handle are created, no event is emitted.
            move_to(account, MessageHolder {
                message,
                message_change_events: account::new_event_handle<MessageChangeEvent>(account),
            });
        } else {
            let holder = borrow_global_mut<MessageHolder>(addr);
            let from_message = holder.message;
            // The event handle API is the one the REST history endpoint reads
            // (`/events/<struct>/message_change_events`), so it is kept even where module events exist.
            event::emit_event(&mut holder.message_change_events, MessageChangeEvent {
                from_message,
                to_message: copy message,
            });
            holder.message = message;
        }
    }

    #[test(owner = @0xa11ce)]
    fun set_then_get(owner: signer) acquires MessageHolder {
        let addr = signer::address_of(&owner);
        account::create_account_for_test(addr);

        set_message(&owner, utf8(b"Hello, Move"));

        assert!(get_message(addr) == utf8(b"Hello, Move"), 1);
        // The first write creates the holder without an event.
        assert!(event::counter(&borrow_global<MessageHolder>(addr).message_change_events) == 0, 2);
    }

    #[test(owner = @0xa11ce)]
    fun set_twice_emits_one_change_event(owner: signer) acquires MessageHolder {
        let addr = signer::address_of(&owner);
        account::create_account_for_test(addr);

        set_message(&owner, utf8(b"first"));
        set_message(&owner, utf8(b"second"));

        assert!(get_message(addr) == utf8(b"second"), 1);
        let handle = &borrow_global<MessageHolder>(addr).message_change_events;
        assert!(event::counter(handle) == 1, 2);
        let emitted = event::emitted_events_by_handle(handle);
        assert!(vector::length(&emitted) == 1, 3);
        let expected = MessageChangeEvent { from_message: utf8(b"first"), to_message: utf8(b"second") };
        assert!(vector::borrow(&emitted, 0) == &expected, 4);
    }

    #[test(owner = @0xa11ce)]
    fun each_later_set_records_old_and_new(owner: signer) acquires MessageHolder {
        let addr = signer::address_of(&owner);
        account::create_account_for_test(addr);

        set_message(&owner, utf8(b"a"));
        set_message(&owner, utf8(b"b"));
        set_message(&owner, utf8(b"c"));

        let handle = &borrow_global<MessageHolder>(addr).message_change_events;
        assert!(event::counter(handle) == 2, 1);
        let emitted = event::emitted_events_by_handle(handle);
        let second = vector::borrow(&emitted, 1);
        assert!(second.from_message == utf8(b"b") && second.to_message == utf8(b"c"), 2);
    }

    #[test]
    #[expected_failure(abort_code = 0x60000, location = Self)]
    fun get_on_empty_address_aborts() acquires MessageHolder {
        get_message(@0xb0b);
    }
}
