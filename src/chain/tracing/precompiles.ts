/** Whether an address holds a precompile on this VM (the hardfork's and the modules' own). */
import type { Address } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";

export function precompileAt(vm: VM, a: Address): boolean {
  const evm = vm.evm as unknown as { getPrecompile(a: Address): unknown };
  return evm.getPrecompile(a) !== undefined;
}
