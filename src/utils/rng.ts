/** A seeded random sequence (Solidity tests' fuzz inputs and random cheatcodes). */
/** splitmix64: a small seeded generator, the same sequence for the same seed on every machine. */
export class Rng {
  private _state: bigint;

  constructor(seed: bigint) {
    this._state = BigInt.asUintN(64, seed);
  }

  next64(): bigint {
    this._state = BigInt.asUintN(64, this._state + 0x9e3779b97f4a7c15n);
    let z = this._state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  }

  /** A whole number in [0, n). */
  below(n: number): number {
    return Number(this.next64() % BigInt(n));
  }

  bits(n: number): bigint {
    let v = 0n;
    for (let got = 0; got < n; got += 64) v = (v << 64n) | this.next64();
    return BigInt.asUintN(n, v);
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = Number(this.next64() & 0xffn);
    return out;
  }
}
