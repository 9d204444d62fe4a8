import { describe, expect, it } from 'vitest';
import { renderPlanJson } from '../../src/render/plan-json.js';
import { emptyPlan, samplePlan } from './plan-fixture.js';

describe('renderPlanJson', () => {
  it('is the documented formatVersion 1 shape', () => {
    expect(renderPlanJson(samplePlan())).toMatchInlineSnapshot(`
      "{
        "formatVersion": 1,
        "environment": "staging",
        "deploymentId": 1,
        "publicIds": "as-is",
        "hasChanges": true,
        "addresses": [
          {
            "address": "workbook/sales",
            "action": "create",
            "file": "workbooks/sales.yaml"
          },
          {
            "address": "report/newRep000001",
            "action": "create",
            "file": "reports/newRep000001.yaml"
          },
          {
            "address": "report/revqZ1x8Kp0a",
            "action": "update",
            "file": "reports/revqZ1x8Kp0a.yaml"
          },
          {
            "address": "report/uiMade000001",
            "action": "adopt",
            "file": "reports/uiMade000001.yaml"
          },
          {
            "address": "user-attribute/region",
            "action": "create",
            "file": "user-attributes/region.yaml"
          }
        ],
        "changes": [
          {
            "address": "workbook/sales",
            "kind": "workbook",
            "actions": [
              "create",
              "publish"
            ],
            "file": "workbooks/sales.yaml",
            "line": 1,
            "col": 1,
            "fields": [
              {
                "path": "name",
                "after": "Sales"
              },
              {
                "path": "meta.dashboardDraft",
                "after": {
                  "title": "Sales",
                  "widgets": [
                    {
                      "id": "w1",
                      "type": "CHART",
                      "position": {
                        "x": 0,
                        "y": 0,
                        "w": 6,
                        "h": 4
                      },
                      "config": {
                        "reportId": {
                          "$report": "newRep000001"
                        }
                      }
                    }
                  ]
                },
                "dashboard": {
                  "members": [
                    {
                      "path": "title",
                      "after": "Sales"
                    }
                  ],
                  "widgets": [
                    {
                      "widget": "w1",
                      "change": "added",
                      "reports": [
                        "newRep000001"
                      ],
                      "type": "CHART",
                      "position": {
                        "x": 0,
                        "y": 0,
                        "w": 6,
                        "h": 4
                      },
                      "title": "New \`tick\` | pipe"
                    }
                  ],
                  "reports": {
                    "newRep000001": "New \`tick\` | pipe"
                  },
                  "layoutChanged": true
                }
              }
            ],
            "requests": [
              {
                "id": "workbook/sales#upsert",
                "op": "upsertWorkbook",
                "phase": 1,
                "dependsOn": []
              },
              {
                "id": "workbook/sales#draft",
                "op": "upsertWorkbook",
                "phase": 3,
                "dependsOn": [
                  "workbook/sales#upsert",
                  "report/newRep000001#create"
                ]
              },
              {
                "id": "workbook/sales#publish",
                "op": "publishWorkbook",
                "phase": 4,
                "dependsOn": [
                  "workbook/sales#upsert",
                  "workbook/sales#draft"
                ]
              }
            ]
          },
          {
            "address": "report/newRep000001",
            "kind": "report",
            "actions": [
              "create"
            ],
            "livePublicId": "newRep000001",
            "file": "reports/newRep000001.yaml",
            "line": 1,
            "col": 1,
            "fields": [
              {
                "path": "source",
                "after": "PLAYGROUND"
              },
              {
                "path": "name",
                "after": "New \`tick\` | pipe"
              },
              {
                "path": "workbookId",
                "after": {
                  "$workbook": "sales"
                }
              }
            ],
            "requests": [
              {
                "id": "report/newRep000001#create",
                "op": "createReport",
                "phase": 2,
                "dependsOn": [
                  "workbook/sales#upsert"
                ]
              }
            ]
          },
          {
            "address": "report/revqZ1x8Kp0a",
            "kind": "report",
            "actions": [
              "update"
            ],
            "liveId": 41,
            "livePublicId": "revqZ1x8Kp0a",
            "file": "reports/revqZ1x8Kp0a.yaml",
            "line": 1,
            "col": 1,
            "fields": [
              {
                "path": "name",
                "before": "Revenue",
                "after": "Revenue (net)"
              },
              {
                "path": "sqlQuery",
                "before": "select\\n  sum(amount)\\nfrom orders\\n\`\`\`\\n",
                "after": "select\\n  sum(amount)\\nfrom orders\\nwhere paid\\n\`\`\`\\n"
              },
              {
                "path": "jsonQuery",
                "before": "{\\"measures\\":[\\"a\\"]}",
                "after": "{\\"measures\\":[\\"a\\",\\"b\\"]}"
              }
            ],
            "requests": [
              {
                "id": "report/revqZ1x8Kp0a#update",
                "op": "updateReport",
                "phase": 2,
                "dependsOn": []
              }
            ]
          },
          {
            "address": "report/uiMade000001",
            "kind": "report",
            "actions": [
              "adopt"
            ],
            "liveId": 90,
            "livePublicId": "uiMade000001",
            "file": "reports/uiMade000001.yaml",
            "line": 1,
            "col": 1,
            "fields": [
              {
                "path": "publicId",
                "before": "000000abcdef",
                "after": "uiMade000001"
              }
            ],
            "requests": [
              {
                "id": "report/uiMade000001#adopt",
                "op": "updateReport",
                "phase": 2,
                "dependsOn": []
              }
            ]
          },
          {
            "address": "user-attribute/region",
            "kind": "user-attribute",
            "actions": [
              "create"
            ],
            "file": "user-attributes/region.yaml",
            "line": 1,
            "col": 1,
            "fields": [
              {
                "path": "type",
                "after": "string"
              },
              {
                "path": "displayName",
                "after": "<b>Region</b>"
              }
            ],
            "requests": [
              {
                "id": "user-attribute/region#create",
                "op": "createUserAttribute",
                "phase": 0,
                "dependsOn": []
              }
            ]
          }
        ],
        "summary": {
          "create": 3,
          "update": 1,
          "adopt": 1,
          "publish": 1,
          "noop": 0,
          "unmanaged": {
            "workbooks": 1,
            "reports": 0,
            "userAttributes": 0
          }
        }
      }
      "
    `);
  });

  it('an empty plan has no changes; pretty-printed, ends with a newline', () => {
    const text = renderPlanJson(emptyPlan());
    expect(text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(text)).toEqual({
      formatVersion: 1,
      environment: 'staging',
      deploymentId: 1,
      publicIds: 'as-is',
      hasChanges: false,
      addresses: [],
      changes: [],
      summary: {
        create: 0,
        update: 0,
        adopt: 0,
        publish: 0,
        noop: 1,
        unmanaged: { workbooks: 1, reports: 0, userAttributes: 0 },
      },
    });
  });
});
