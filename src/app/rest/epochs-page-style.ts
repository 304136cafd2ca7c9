/** The epochs page's style sheet (src/app/rest/epochs-page.ts serves it as /epochs/page.css). */
export const PAGE_CSS = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: #1d232a; background: #f6f7f9; }
header { background: #1d232a; color: #fff; padding: 12px 24px; display: flex; align-items: baseline; gap: 16px; flex-wrap: wrap; }
header h1 { margin: 0; font-size: 20px; }
header .muted { color: #b5bdc6; }
main { padding: 8px 24px 32px; max-width: 1200px; }
h2 { font-size: 16px; margin: 24px 0 8px; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid #e3e6ea; vertical-align: top; }
th { font-weight: 600; background: #eef0f3; }
td.num { font-variant-numeric: tabular-nums; }
td.none { color: #6b7480; }
.muted { color: #6b7480; font-weight: normal; }
ol { background: #fff; margin: 0; padding: 8px 8px 8px 40px; }
ol:empty { display: none; }
li { padding: 4px 0; border-bottom: 1px solid #eef0f3; }
li:last-child { border-bottom: 0; }
#events, #events ol { list-style: none; padding-left: 8px; }
li.block .block-head { font-weight: 600; }
li.block .event { margin-left: 16px; }
li.run summary { cursor: pointer; font-weight: 600; }
li.run summary .failed { font-weight: normal; }
.name { font-weight: 600; }
code { font: 12px ui-monospace, monospace; }
.failed { color: #b3261e; }
.ok { color: #1a7f37; }
pre { margin: 4px 0 0; font: 12px ui-monospace, monospace; white-space: pre-wrap; color: #b3261e; }
#controls form { display: inline-flex; gap: 6px; align-items: center; margin: 0 16px 8px 0; background: #fff; padding: 6px 10px; border: 1px solid #e3e6ea; }
#controls input[type=number] { width: 7em; }
#filters { display: flex; gap: 24px; flex-wrap: wrap; margin: 0 0 8px; }
#filters fieldset { border: 1px solid #e3e6ea; background: #fff; margin: 0; padding: 4px 10px; }
#filters label { margin-right: 10px; white-space: nowrap; }
.panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 0 24px; }
`;
