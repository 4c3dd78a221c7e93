package dev.pipelininglab;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class PipeliningLabApplication {

	public static void main(String[] args) {
		SpringApplication.run(PipeliningLabApplication.class, args);
	}

}
