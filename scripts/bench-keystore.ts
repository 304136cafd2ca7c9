/**
 * The cost of the key store's key-derivation function: milliseconds to create a key (encrypt) and to
 * unlock it (decrypt), with geth's standard scrypt parameters (N=262144, r=8, p=1) and geth's light
 * ones (N=4096, r=8, p=6), wall-clock and CPU time. Run: npx ts-node --transpile-only scripts/bench-keystore.ts [runs]
 */
import { KeyStore, LIGHT_SCRYPT, STANDARD_SCRYPT, type ScryptParams } from "../src/keystore";

async function measure(name: string, params: ScryptParams, runs: number): Promise<void> {
  const ks = await KeyStore.open({ scrypt: params });
  const create: number[] = [];
  const unlock: number[] = [];
  const cpu = { create: 0, unlock: 0 };
  const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    let c = process.cpuUsage();
    const address = await ks.newAccount(`pass ${i}`);
    create.push(performance.now() - t);
    cpu.create += cpuMs(process.cpuUsage(c));
    t = performance.now();
    c = process.cpuUsage();
    await ks.unlock(address, `pass ${i}`, 1n);
    unlock.push(performance.now() - t);
    cpu.unlock += cpuMs(process.cpuUsage(c));
    ks.lock(address);
  }
  ks.close();
  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return `median ${s[Math.floor(s.length / 2)].toFixed(0)} ms (min ${s[0].toFixed(0)}, max ${s[s.length - 1].toFixed(0)})`;
  };
  console.log(`${name} N=${params.N} r=${params.r} p=${params.p}, ${runs} runs`);
  // CPU time says what the work costs even when other processes share the cores (wall time then grows)
  console.log(`  create (encrypt): ${stats(create)}; CPU ${(cpu.create / runs).toFixed(0)} ms on average`);
  console.log(`  unlock (decrypt): ${stats(unlock)}; CPU ${(cpu.unlock / runs).toFixed(0)} ms on average`);
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? "5");
  console.log(`node ${process.version}, ${process.platform}/${process.arch}`);
  await measure("standard", STANDARD_SCRYPT, runs);
  await measure("light", LIGHT_SCRYPT, runs * 4);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
