/**
 * The HTML report's one stylesheet. The content column is 1200 px wide at
 * most, so a 1280 px window never scrolls sideways: a wide table scrolls in
 * its own box, a chart scales down to the column (CHART_WIDTH fits it).
 */
export const CSS = `*{box-sizing:border-box}
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;padding:1em 20px 3em;color:#222;max-width:1240px}
h1{margin:.2em 0}h2{margin:1.6em 0 .4em;border-bottom:1px solid #ddd;padding-bottom:.2em}h3{margin:1.2em 0 .3em;font-size:1.05em}
header .counts{font-size:1.1em;margin:.2em 0 .8em}
.table{overflow-x:auto;margin:.4em 0 1.2em;max-width:100%}
table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:2px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f3;vertical-align:bottom}td{overflow-wrap:break-word}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.bad{color:#b00;font-weight:bold}.warn{color:#a60}
table.meta td{border:none;padding:1px 12px 1px 0}table.meta th{border:none;background:none;padding:1px 12px 1px 0;vertical-align:top;white-space:nowrap}
table.meta details summary{color:inherit}
table.runs td,table.inputs td{max-width:520px}table.runs{margin-bottom:.4em}
.verdict{border:1px solid #ccc;border-left:6px solid #2a2;padding:.3em 1em .6em;margin:1em 0;background:#fafafa}
.verdict.v-bad{border-left-color:#b00}.verdict.v-warn{border-left-color:#d90}
.verdict h2{border:none;margin:.3em 0;font-weight:bold}.verdict.v-bad h2{color:#b00}.verdict.v-warn h2{color:#a60}
.verdict ul{padding-left:1.2em}.verdict li{margin:.2em 0;font-weight:normal}
.see{color:#555;font-style:italic;white-space:nowrap}
nav.toc ol{columns:3;column-gap:2em;padding-left:1.2em;margin:.3em 0}nav.toc li{break-inside:avoid}
nav.toc ol ol{columns:1;padding-left:1em;font-size:.92em}
nav.toc a{color:#035;text-decoration:none}nav.toc a:hover{text-decoration:underline}nav.toc a.bad{color:#b00}nav.toc a.warn{color:#a60}
.chart{margin:.6em 0 1.6em;max-width:100%}.chart svg{max-width:100%;height:auto;display:block}
.table+details{margin:-.6em 0 1.2em}summary{cursor:pointer;color:#035}
.note{color:#555;margin:-.8em 0 1.2em}
code{background:#f6f6f6}li{overflow-wrap:anywhere}
ul.quarantine li li{list-style:none}`;
