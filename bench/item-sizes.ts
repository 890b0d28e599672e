import { type AttributeValue, type DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';

/**
 * The largest item of each kind in the table, sized by DynamoDB's rules (what a write is billed on and
 * what the 400 KB limit counts): an attribute is its name's UTF-8 bytes plus its value's; a string its
 * UTF-8 bytes, a number about one byte per two significant digits plus one, a list or map 3 bytes plus
 * one per element plus the elements.
 */
export function attributeBytes(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S);
  if (value.N !== undefined) {
    const digits = value.N.replace(/^-/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
    return Math.ceil(Math.max(1, digits.length) / 2) + 1;
  }
  if (value.B !== undefined) return value.B.length;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS) return value.SS.reduce((n, s) => n + Buffer.byteLength(s), 0);
  if (value.NS) return value.NS.reduce((n, x) => n + attributeBytes({ N: x }), 0);
  if (value.L) return 3 + value.L.reduce((n, x) => n + 1 + attributeBytes(x), 0);
  if (value.M) return 3 + itemBytes(value.M) + Object.keys(value.M).length;
  return 0;
}

export const itemBytes = (item: Record<string, AttributeValue>) =>
  Object.entries(item).reduce((n, [name, value]) => n + Buffer.byteLength(name) + attributeBytes(value), 0);

/**
 * ElectroDB's entity name; for items written by hand, the entity their sort key names (counters under
 * an entity's keys: list counts, metrics days) or else the partition key's prefix (outbox, search rows).
 */
const kindOf = (item: Record<string, AttributeValue>) => {
  if (item.__edb_e__?.S) return item.__edb_e__.S;
  const named = /^\$([a-z0-9]+)_/.exec(item.sk?.S ?? '');
  return named ? named[1]! : (item.pk?.S ?? '?').split('#')[0]!.replace(/^\$/, '');
};

export interface LargestItem {
  kind: string;
  bytes: number;
  items: number;
}

/** One pass over the table: per kind, how many items and the largest one's size. */
export async function largestItems(client: DynamoDBClient, tableName: string): Promise<LargestItem[]> {
  const kinds = new Map<string, LargestItem>();
  let start: Record<string, AttributeValue> | undefined;
  do {
    const out = await client.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start }));
    for (const item of out.Items ?? []) {
      const kind = kindOf(item);
      const k = kinds.get(kind) ?? { kind, bytes: 0, items: 0 };
      k.items++;
      k.bytes = Math.max(k.bytes, itemBytes(item));
      kinds.set(kind, k);
    }
    start = out.LastEvaluatedKey;
  } while (start);
  return [...kinds.values()].sort((a, b) => b.bytes - a.bytes);
}

/**
 * Kinds allowed past 32 KB, each with what bounds its growth (decisions.md says why each is one item).
 */
export const LARGE_ITEMS: Record<string, string> = {
  logTemplates: "a project's learned log templates, at most 1,000 and 300 KB (least recently used forgotten first)",
  emailContent:
    'written once, read once by the email consumer, in no index: a body of at most 50,000 characters, or variables of at most 100,000 (JSON)',
};
