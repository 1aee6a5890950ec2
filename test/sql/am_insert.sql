-- INSERT, COPY and transaction visibility.
CREATE TABLE t (id int, v text) USING colstore;

INSERT INTO t VALUES (1, 'a');
INSERT INTO t VALUES (2, 'b'), (3, NULL) RETURNING *;
INSERT INTO t SELECT i, 'gen' || i FROM generate_series(4, 6) i RETURNING id, v;
SELECT * FROM t ORDER BY id;

-- COPY in and out
COPY t FROM STDIN;
7	seven
8	\N
\.
COPY (SELECT * FROM t ORDER BY id) TO STDOUT;
COPY t TO STDOUT WITH (FORMAT csv);

-- a transaction sees its own rows; an aborted one leaves nothing
BEGIN;
INSERT INTO t VALUES (100, 'mine');
SELECT count(*) FROM t WHERE id = 100;
ROLLBACK;
SELECT count(*) FROM t WHERE id = 100;

-- savepoints: rolled-back inserts vanish, released ones stay
BEGIN;
INSERT INTO t VALUES (200, 'kept');
SAVEPOINT s1;
INSERT INTO t VALUES (201, 'rolled back');
ROLLBACK TO s1;
SAVEPOINT s2;
INSERT INTO t VALUES (202, 'released');
RELEASE s2;
INSERT INTO t VALUES (203, 'after');
SELECT id, v FROM t WHERE id >= 200 ORDER BY id;
COMMIT;
SELECT id, v FROM t WHERE id >= 200 ORDER BY id;

-- a cursor keeps its snapshot; later statements see later rows
BEGIN;
DECLARE c CURSOR FOR SELECT id FROM t WHERE id >= 300 ORDER BY id;
INSERT INTO t VALUES (300, 'after cursor');
FETCH ALL FROM c;
SELECT id FROM t WHERE id >= 300;
CLOSE c;
DECLARE c2 CURSOR FOR SELECT id FROM t WHERE id >= 300 ORDER BY id;
FETCH ALL FROM c2;
COMMIT;

-- rows inserted by a statement are not seen by that statement's own scan
INSERT INTO t SELECT id + 1000, v FROM t;
SELECT count(*) FROM t WHERE id >= 1000;
SELECT count(*) FROM t;

-- PL/pgSQL with an exception block (a subtransaction per block)
DO $$
BEGIN
	FOR i IN 1..3 LOOP
		BEGIN
			INSERT INTO t VALUES (500 + i, 'loop');
			IF i = 2 THEN
				RAISE EXCEPTION 'undo %', i;
			END IF;
		EXCEPTION WHEN raise_exception THEN
			NULL;
		END;
	END LOOP;
END
$$;
SELECT id FROM t WHERE id BETWEEN 500 AND 600 ORDER BY id;

-- two-phase commit
BEGIN;
INSERT INTO t VALUES (700, 'prepared');
PREPARE TRANSACTION 'colstore_2pc';
SELECT count(*) FROM t WHERE id = 700;
COMMIT PREPARED 'colstore_2pc';
SELECT count(*) FROM t WHERE id = 700;

-- ON CONFLICT DO NOTHING
CREATE UNIQUE INDEX t_id ON t (id);
INSERT INTO t VALUES (1, 'dup') ON CONFLICT DO NOTHING;
INSERT INTO t VALUES (9, 'nine'), (9, 'nine again') ON CONFLICT DO NOTHING;
INSERT INTO t VALUES (10, 'ten') ON CONFLICT (id) DO NOTHING RETURNING *;
SELECT * FROM t WHERE id IN (1, 9, 10) ORDER BY id;

DROP TABLE t;
