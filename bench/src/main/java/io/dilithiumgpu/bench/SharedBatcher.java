package io.dilithiumgpu.bench;

import io.dilithiumgpu.batch.Batcher;
import io.dilithiumgpu.batch.Engines;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/** The provider's process-wide batcher, as the JCA subcommands see it. */
final class SharedBatcher {
    private SharedBatcher() {}

    /**
     * Opens the provider's shared batcher and returns its explanation of the backend choice. The
     * batcher logs it once, when it opens, through {@link System.Logger} (the reason is the first
     * parameter of the record, the configuration the second); with the JDK's default logging the
     * record is caught here and shown in the subcommand's output instead of on stderr.
     */
    static String openAndExplain() {
        Logger logger = Logger.getLogger(Batcher.class.getName());
        List<String> messages = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                Object[] params = record.getParameters();
                String line = params != null && params.length > 0 ? String.valueOf(params[0])
                        : new SimpleFormatter().formatMessage(record);
                synchronized (messages) {
                    messages.add(line);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        boolean parents = logger.getUseParentHandlers();
        logger.addHandler(capture);
        logger.setUseParentHandlers(false);
        try {
            Engines.sharedBatcher();
        } finally {
            logger.removeHandler(capture);
            logger.setUseParentHandlers(parents);
        }
        synchronized (messages) {
            return messages.isEmpty() ? "the batcher was already open; its choice was logged then"
                    : String.join("; ", messages);
        }
    }
}
