package com.example.coursescheduling;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class CourseSchedulingApplication {
    public static void main(String[] args) {
        SpringApplication.run(CourseSchedulingApplication.class, args);
    }
}
