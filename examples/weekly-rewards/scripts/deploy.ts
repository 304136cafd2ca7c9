// npx hardhat run scripts/deploy.ts --network localhost   (with `npx hardhat node` running)
import hre, { ethers } from "hardhat";

async function main(): Promise<void> {
  const rewards = await ethers.deployContract("WeeklyRewards", [ethers.parseEther("1")], { value: ethers.parseEther("10") });
  await rewards.waitForDeployment();
  const address = await rewards.getAddress();
  const week = await hre.epochs.current("week");
  console.log(`WeeklyRewards deployed at ${address}; week ${week}; registered hook: ${(await hre.epochs.hooks()).includes(address)}`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
