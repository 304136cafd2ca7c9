/** An `eth_subscribe("epochs")` over a node's WebSocket, collecting the notifications (tests). */
import WebSocket from "ws";

export interface EpochsNote {
  phase: string;
  type: string;
  attributes: Array<{ key: string; value: string }>;
  /** The timer of a typed (SDK) epoch event, which carries no identifier: the node's annotation. */
  timer?: string;
}

/** Subscribes on `httpUrl`'s WebSocket and resolves once the subscription is confirmed. */
export async function subscribeEpochs(httpUrl: string): Promise<{ notes: EpochsNote[]; close(): void }> {
  const ws = new WebSocket(httpUrl.replace("http", "ws"));
  await new Promise((r) => ws.once("open", r));
  const notes: EpochsNote[] = [];
  let sub = "";
  ws.on("message", (b: Buffer) => {
    const m = JSON.parse(b.toString()) as { id?: number; result?: string; params?: { subscription: string; result: EpochsNote } };
    if (m.id === 1) sub = m.result as string;
    else if (m.params?.subscription === sub) notes.push(m.params.result);
  });
  ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["epochs"] }));
  for (let i = 0; i < 500 && sub === ""; i++) await new Promise((r) => setTimeout(r, 10));
  if (sub === "") throw new Error("no answer to eth_subscribe(epochs)");
  return { notes, close: () => ws.close() };
}
