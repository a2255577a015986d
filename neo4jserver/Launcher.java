/*
 * leishen's Neo4j launcher: Neo4j Community 5.26 embedded, with the Bolt connector on 127.0.0.1 only.
 *
 * Run in Java source-file mode (no javac step), with the jars fetched by pom.xml on the class path:
 *   java -cp '<lib>/*' Launcher.java --port 0 --data /path/to/home [--auth]
 *
 * --port 0 lets the OS pick a free port; the real port is printed on the ready line:
 *   LEISHEN_NEO4J_READY bolt://127.0.0.1:<port>
 * --auth enables authentication; the password of user "neo4j" is read from the environment variable
 * LEISHEN_NEO4J_PASSWORD (never from the command line, which other users can read) and set at start.
 * The HTTP connector is off. SIGTERM shuts the database down cleanly (shutdown hook).
 * Transactions are bounded by the server itself: 150 s unless the client sets its own timeout, 384 MB of
 * memory each (512 MB all together), 64 at once, so no client can keep a core or the heap busy.
 */

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.ConnectorPortRegister;
import org.neo4j.configuration.connectors.ConnectorType;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.connectors.HttpsConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.io.ByteUnit;
import org.neo4j.kernel.internal.GraphDatabaseAPI;

public final class Launcher {

    private static final String HOST = "127.0.0.1";
    private static final String PASSWORD_ENV = "LEISHEN_NEO4J_PASSWORD";
    private static final long MAX_TX_MEMORY_MB = 384;

    /** Parsed command line. */
    private record Options(int port, Path data, boolean auth) {}

    public static void main(String[] args) throws Exception {
        Options options = parse(args);
        String password = options.auth() ? requirePassword() : null;
        DatabaseManagementService dbms = build(options);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("LEISHEN_NEO4J_STOPPING");
            System.out.flush();
            dbms.shutdown();
        }));
        GraphDatabaseService db = dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
        db.executeTransactionally("RETURN 1");  // fails here if the default database did not start
        if (password != null) {
            setPassword(dbms, password);
        }
        int port = boltPort(db, options.port());
        System.out.println("LEISHEN_NEO4J_READY bolt://" + HOST + ":" + port);
        System.out.flush();
        Thread.currentThread().join();  // run until SIGTERM
    }

    /** Parses --port N, --data DIR and --auth. */
    private static Options parse(String[] args) {
        int port = 0;
        Path data = null;
        boolean auth = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--data" -> data = Path.of(args[++i]);
                case "--auth" -> auth = true;
                default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
            }
        }
        if (data == null) {
            throw new IllegalArgumentException("--data DIR is required");
        }
        return new Options(port, data.toAbsolutePath(), auth);
    }

    /** The password for --auth, from the environment. */
    private static String requirePassword() {
        String password = System.getenv(PASSWORD_ENV);
        if (password == null || password.length() < 8) {
            throw new IllegalArgumentException(
                    "--auth needs " + PASSWORD_ENV + " set to a password of at least 8 characters");
        }
        return password;
    }

    /** Builds the embedded DBMS: Bolt on loopback, HTTP(S) off, no file URLs for LOAD CSV. */
    private static DatabaseManagementService build(Options options) {
        return new DatabaseManagementServiceBuilder(options.data())
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress(HOST, options.port()))
                .setConfig(BoltConnector.advertised_address, new SocketAddress(HOST, options.port()))
                .setConfig(HttpConnector.enabled, false)
                .setConfig(HttpsConnector.enabled, false)
                .setConfig(GraphDatabaseSettings.auth_enabled, options.auth())
                .setConfig(GraphDatabaseSettings.allow_file_urls, false)
                .setConfig(GraphDatabaseSettings.pagecache_memory, ByteUnit.mebiBytes(128))
                // a transaction that no client bounds (or whose client died) is stopped after 150 s; leishen's
                // own queries set their timeout (at most 120 s) and the load sets 600 s explicitly
                .setConfig(GraphDatabaseSettings.transaction_timeout, Duration.ofSeconds(150))
                // memory of one transaction and of all of them together; over it, the transaction fails
                // (Neo.TransientError.General.MemoryPoolOutOfMemoryError) instead of the JVM
                .setConfig(GraphDatabaseSettings.memory_transaction_max_size, ByteUnit.mebiBytes(MAX_TX_MEMORY_MB))
                .setConfig(GraphDatabaseSettings.memory_transaction_global_max_size, ByteUnit.mebiBytes(MAX_TX_MEMORY_MB + 128))
                .setConfig(GraphDatabaseSettings.max_concurrent_transactions, 64)
                // on SIGTERM, open transactions get 5 s to finish, then are rolled back (default 10 s)
                .setConfig(GraphDatabaseSettings.shutdown_transaction_end_timeout, Duration.ofSeconds(5))
                .build();
    }

    /** Sets the password of user neo4j (embedded transactions run with full rights). */
    private static void setPassword(DatabaseManagementService dbms, String password) {
        dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME).executeTransactionally(
                "ALTER USER neo4j SET PASSWORD $password CHANGE NOT REQUIRED", Map.of("password", password));
    }

    /** The port Bolt really listens on (differs from the requested one when that was 0). */
    private static int boltPort(GraphDatabaseService db, int requested) {
        try {
            ConnectorPortRegister ports = ((GraphDatabaseAPI) db).getDependencyResolver()
                    .resolveDependency(ConnectorPortRegister.class);
            return ports.getLocalAddress(ConnectorType.BOLT).getPort();
        } catch (RuntimeException e) {
            if (requested == 0) {
                throw new IllegalStateException("cannot find the Bolt port the OS chose", e);
            }
            return requested;
        }
    }
}
