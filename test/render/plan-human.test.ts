import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { renderPlanHuman } from '../../src/render/plan-human.js';
import { plainStyle } from '../../src/render/style.js';
import { emptyPlan, samplePlan } from './plan-fixture.js';

describe('renderPlanHuman', () => {
  it('shows each change, per field, with diffs for long values', () => {
    expect(renderPlanHuman(samplePlan(), plainStyle)).toMatchInlineSnapshot(`
      "wsc will make these changes to deployment 1 (environment staging):

      + workbook/sales         workbooks/sales.yaml
      + report/newRep000001    reports/newRep000001.yaml
      ~ report/revqZ1x8Kp0a    reports/revqZ1x8Kp0a.yaml
      → report/uiMade000001    reports/uiMade000001.yaml
      + user-attribute/region  user-attributes/region.yaml

      + workbook/sales will be created and published
          workbooks/sales.yaml:1:1
          name: "Sales"
          meta.dashboardDraft:
            + title: "Sales"
            + widget w1 "New \`tick\` | pipe" added: CHART at 0,0 6×4, shows { $report: newRep000001 }

          after (lg, 12 columns)
          +*w1--------------------------------+
          |                                   |
          |                                   |
          |                                   |
          +-----------------------------------+
          * changed
          ↑ publish the dashboard draft

      + report/newRep000001 will be created
          reports/newRep000001.yaml:1:1
          source: "PLAYGROUND"
          name: "New \`tick\` | pipe"
          workbookId: { $workbook: sales }

      ~ report/revqZ1x8Kp0a will be updated
          reports/revqZ1x8Kp0a.yaml:1:1
          name: "Revenue" → "Revenue (net)"
          sqlQuery:
            @@ sqlQuery line 4 @@
              select
                sum(amount)
              from orders
            + where paid
              \`\`\`
              
          jsonQuery:
            @@ jsonQuery: measures @@
              measures:
                - a
            +   - b

      → report/uiMade000001 will be adopted (report id 90)
          reports/uiMade000001.yaml:1:1
          publicId: "000000abcdef" → "uiMade000001"

      + user-attribute/region will be created
          user-attributes/region.yaml:1:1
          type: "string"
          displayName: "<b>Region</b>"

      Plan: 3 to create, 1 to update, 1 to adopt, 1 to publish.
      0 unchanged, 1 unmanaged resource left alone.
      "
    `);
  });

  it('an empty plan says so and counts what it left alone', () => {
    expect(renderPlanHuman(emptyPlan(), plainStyle)).toMatchInlineSnapshot(`
      "No changes. The deployment matches the bundle.
      1 unchanged, 1 unmanaged resource left alone.
      "
    `);
  });

  it('colours with a colour style, never without', () => {
    const colour = { color: true, spinner: false, c: new Chalk({ level: 1 }) };
    expect(renderPlanHuman(samplePlan(), colour)).toContain('\u001b[32m+');
    expect(renderPlanHuman(samplePlan(), plainStyle)).not.toContain('\u001b[');
  });
});
