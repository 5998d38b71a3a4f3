# Makes test/mock/data/python-json-refusals.json: texts that Python refuses, each with the message and position
# CPython gives (run from the project root with the Python the real service runs on: 3.11).
# Texts JSON.parse refuses, each with what Python's json.loads says of it: a corpus for the mock's Python JSON errors.
import json, random
random.seed(40)
base = ['{"app_id":"665d89085f1a2b3c4d000002","variant_ids":["a","b"],"evaluators_configs":[],"testset_id":"t",'
        '"rate_limit":{"batch_size":10,"max_retries":3,"retry_delay":3,"delay_between_batches":5},'
        '"lm_providers_keys":{"OPENAI_API_KEY":"k\\u00e9"},"correct_answer_column":null,"x":[true,false,-1.5e3,0]}',
        '[1, 2.5, "é😀", {"a": [ ]}, {}]', '{"ü": "\\ud83d\\ude00", "n": -0.0E+1}']
alphabet = list('{}[]:,"\\ -+.eE0123456789tfnulaxNI\t\n\r\x01é😀') + ['\\u12', '\\uZZZZ', 'null', 'tru', 'NaN', 'Infinity']
out = []
seen = set()
def add(t):
    if t in seen: return
    seen.add(t)
    try:
        json.loads(t.encode('utf-8')); return  # only texts Python refuses
    except json.JSONDecodeError as e:
        out.append({"text": t, "msg": e.msg, "pos": e.pos})
    except Exception:
        return
for b in base:
    for i in range(len(b) + 1): add(b[:i])
for _ in range(3000):
    t = random.choice(base)
    for _ in range(random.randint(1, 3)):
        op = random.random(); i = random.randrange(len(t) + 1)
        if op < 0.4: t = t[:i] + random.choice(alphabet) + t[i:]
        elif op < 0.8: t = t[:i] + t[i + 1:]
        else: t = t[:i] + random.choice(alphabet) + t[i + 1:]
    add(t)
for t in ['', ' ', '   ', '\n\n{"a" 1}', '{', '[', '"', '"\\', '"\\u', '"\\u123', '"\\u1234', '-', '-I', '1.', '.5', '01', '1e', '1e+', '{"a":1,}', '[1,]', '{} x', '[] ]', '{"a":"\x01"}']:
    add(t)
random.shuffle(out)
out = out[:1000]
with open('test/mock/data/python-json-refusals.json', 'w') as f:
    f.write('[\n' + ',\n'.join(json.dumps(x, ensure_ascii=False) for x in out) + '\n]\n')
print(len(out))
