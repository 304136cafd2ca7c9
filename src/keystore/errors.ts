/**
 * The key store's failures, with geth's texts (accounts/keystore, accounts/manager) so that tools
 * written against geth recognise them. The RPC layer sends each as -32000 with this message.
 */
export class KeyStoreError extends Error {}

/** The passphrase does not open the key file (its MAC does not match). */
export class WrongPassphraseError extends KeyStoreError {
  constructor() {
    super("could not decrypt key with given password");
  }
}

/** Signing with a key-store account that is not unlocked, without a passphrase. */
export class LockedError extends KeyStoreError {
  constructor() {
    super("authentication needed: password or unlock");
  }
}

/** No key file for the address (geth's keystore.ErrNoMatch). */
export class NoKeyError extends KeyStoreError {
  constructor() {
    super("no key for given address or file");
  }
}

/** Importing a key whose address the store already holds. */
export class AccountExistsError extends KeyStoreError {
  constructor() {
    super("account already exists");
  }
}

/** An unlock duration beyond what geth can represent (2^63-1 ns). */
export class DurationTooLargeError extends KeyStoreError {
  constructor() {
    super("unlock duration too large");
  }
}

/** A file that is not a usable Web3 Secret Storage v3 key file; `reason` says why. */
export class KeyFileError extends KeyStoreError {}
