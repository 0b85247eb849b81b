package com.example.coursescheduling.model;

import java.time.LocalDate;

public class Term {
    public Long id;
    public String name;
    public LocalDate startDate;
    public LocalDate endDate;
}
