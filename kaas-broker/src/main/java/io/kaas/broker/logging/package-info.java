/** The broker's default Logback set-up, used when no Logback configuration file is given. */
package io.kaas.broker.logging;
