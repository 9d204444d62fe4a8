// A data model as a production Cube serves it in `/v1/meta` (the facts file's
// shape): cubes joined in one component, a cube that joins nothing else, a
// view exposing cube members under other names, custom granularities, and
// what production meta leaves out (a primary key, a hidden member, a hidden
// cube) listed apart in HIDDEN: Cube still answers queries naming those.
import type { MetaAnswer } from '../../src/domain/data-model.js';

export const CUBE_META: MetaAnswer = {
  cubes: [
    {
      name: 'orders',
      title: 'Orders',
      type: 'cube',
      connectedComponent: 1,
      measures: [
        { name: 'orders.count', title: 'Orders Count', type: 'number', aggType: 'count' },
        { name: 'orders.total', title: 'Orders Total', type: 'number', aggType: 'sum' },
      ],
      dimensions: [
        { name: 'orders.status', title: 'Orders Status', type: 'string' },
        { name: 'orders.amount', title: 'Orders Amount', type: 'number' },
        {
          name: 'orders.created_at',
          title: 'Orders Created at',
          type: 'time',
          granularities: [{ name: 'fiscal_year', title: 'Fiscal Year', interval: '1 year', offset: '1 month' }],
        },
      ],
      segments: [{ name: 'orders.completed', title: 'Orders Completed' }],
    },
    {
      name: 'users',
      title: 'Users',
      type: 'cube',
      connectedComponent: 1,
      measures: [{ name: 'users.count', title: 'Users Count', type: 'number', aggType: 'count' }],
      dimensions: [
        { name: 'users.city', title: 'Users City', type: 'string' },
        { name: 'users.signed_up', title: 'Users Signed up', type: 'time' },
      ],
      segments: [],
    },
    {
      name: 'products',
      title: 'Products',
      type: 'cube',
      connectedComponent: 2,
      measures: [{ name: 'products.count', title: 'Products Count', type: 'number', aggType: 'count' }],
      dimensions: [{ name: 'products.name', title: 'Products Name', type: 'string' }],
      segments: [],
    },
    {
      name: 'sales',
      title: 'Sales',
      type: 'view',
      measures: [
        { name: 'sales.count', title: 'Sales Count', type: 'number', aggType: 'count', aliasMember: 'orders.count' },
      ],
      dimensions: [
        { name: 'sales.order_status', title: 'Sales Order status', type: 'string', aliasMember: 'orders.status' },
        { name: 'sales.created_at', title: 'Sales Created at', type: 'time', aliasMember: 'orders.created_at' },
      ],
      segments: [],
    },
  ],
};

/** Members production meta leaves out, by role: Cube answers queries naming them. */
export const HIDDEN = {
  /** A primary key without `public: true`, and a member written `public: false`. */
  dimensions: ['orders.id', 'users.id', 'orders.internal_note'],
  measures: ['orders.secret_margin'],
  /** A cube written `public: false`. */
  cube: { name: 'audit_log', measures: ['audit_log.count'], dimensions: ['audit_log.action'] },
} as const;
